package org.mflb.fluid;

import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * What an object keeps alive, counted by walking its fields (reflection), without timing or
 * measuring the heap: the objects reachable from it and the elements of the arrays among them.
 * Static fields, classes, strings, enum constants and boxed values are shared, not counted; JDK
 * collections and maps are walked through their elements (their fields are closed to reflection),
 * other JDK objects count as one object.
 */
final class RetainedHeap {

    private RetainedHeap() {
    }

    /** @return the objects reachable from {@code root} plus the elements of its reachable arrays */
    static long size(Object root) {
        Map<Object, Boolean> seen = new IdentityHashMap<>();
        Deque<Object> pending = new ArrayDeque<>(); // holds no nulls
        pending.push(root);
        long size = 0;
        while (!pending.isEmpty()) {
            Object o = pending.pop();
            if (seen.put(o, Boolean.TRUE) != null || shared(o)) {
                continue;
            }
            size++;
            Class<?> type = o.getClass();
            if (type.isArray()) {
                int length = Array.getLength(o);
                size += length;
                if (!type.getComponentType().isPrimitive()) {
                    for (int i = 0; i < length; i++) {
                        push(pending, Array.get(o, i));
                    }
                }
            } else if (o instanceof Collection<?> c && type.getName().startsWith("java.")) {
                size += c.size();
                c.forEach(e -> push(pending, e));
            } else if (o instanceof Map<?, ?> m && type.getName().startsWith("java.")) {
                size += m.size();
                m.forEach((k, v) -> {
                    push(pending, k);
                    push(pending, v);
                });
            } else if (!type.getName().startsWith("java.") && !type.getName().startsWith("jdk.")) {
                for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
                    for (Field f : c.getDeclaredFields()) {
                        if (Modifier.isStatic(f.getModifiers()) || f.getType().isPrimitive()) {
                            continue;
                        }
                        f.setAccessible(true);
                        try {
                            push(pending, f.get(o));
                        } catch (IllegalAccessException e) {
                            throw new IllegalStateException(e);
                        }
                    }
                }
            }
        }
        return size;
    }

    private static void push(Deque<Object> pending, Object o) {
        if (o != null) {
            pending.push(o);
        }
    }

    private static boolean shared(Object o) {
        return o instanceof Class<?> || o instanceof String || o instanceof Enum<?> || o instanceof Number
                || o instanceof Boolean || o instanceof Character;
    }
}
