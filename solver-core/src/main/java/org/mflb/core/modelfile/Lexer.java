package org.mflb.core.modelfile;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a model file into statements of tokens: one statement per line, {@code #} to the end of
 * the line is a comment, blank lines are skipped, and a trailing {@code \} continues a statement on
 * the next line. Every token keeps the line and column where it starts.
 */
final class Lexer {

    /** Token kinds. */
    enum Kind { NUMBER, NAME, STRING, SYMBOL, END }

    /** One token: its kind, its text (a symbol's spelling, a string's contents) and its position. */
    record Token(Kind kind, String text, double number, SourcePosition position) {
        boolean is(String symbol) {
            return kind == Kind.SYMBOL && text.equals(symbol);
        }

        boolean isName(String name) {
            return kind == Kind.NAME && text.equals(name);
        }

        String describe() {
            return switch (kind) {
                case END -> "end of line";
                case STRING -> "\"" + text + "\"";
                default -> "'" + text + "'";
            };
        }
    }

    private static final String[] SYMBOLS = {
        "->", "..", "==", "!=", "<=", ">=", "+", "-", "*", "/", "^", "(", ")", "[", "]", ",", ";", ":", "=", "<", ">"};

    private Lexer() {
    }

    /**
     * @param file file name for positions
     * @param source the whole file
     * @return the statements, each a list of tokens ending with an {@link Kind#END} token
     */
    static List<List<Token>> statements(String file, String source) {
        List<List<Token>> statements = new ArrayList<>();
        List<Token> current = new ArrayList<>();
        int line = 1;
        int lineStart = 0;
        int i = 0;
        int n = source.length();
        while (i <= n) {
            char c = i < n ? source.charAt(i) : '\n';
            int column = i - lineStart + 1;
            if (c == '\n' || c == '#') {
                if (c == '#') {
                    while (i < n && source.charAt(i) != '\n') {
                        i++;
                    }
                    column = i - lineStart + 1;
                }
                if (!current.isEmpty()) {
                    current.add(new Token(Kind.END, "", 0, new SourcePosition(file, line, column)));
                    statements.add(current);
                    current = new ArrayList<>();
                }
                i++;
                line++;
                lineStart = i;
            } else if (c == '\\' && restOfLineBlank(source, i + 1)) {
                // Continuation: skip to the next line and keep the statement open.
                while (i < n && source.charAt(i) != '\n') {
                    i++;
                }
                i++;
                line++;
                lineStart = i;
            } else if (Character.isWhitespace(c)) {
                i++;
            } else if (Character.isDigit(c) || (c == '.' && i + 1 < n && Character.isDigit(source.charAt(i + 1)))) {
                int start = i;
                while (i < n && Character.isDigit(source.charAt(i))) {
                    i++;
                }
                if (i + 1 < n && source.charAt(i) == '.' && Character.isDigit(source.charAt(i + 1))
                        || i < n && source.charAt(i) == '.' && (i + 1 >= n || source.charAt(i + 1) != '.')) {
                    i++;
                    while (i < n && Character.isDigit(source.charAt(i))) {
                        i++;
                    }
                }
                if (i < n && (source.charAt(i) == 'e' || source.charAt(i) == 'E')) {
                    int mark = i;
                    i++;
                    if (i < n && (source.charAt(i) == '+' || source.charAt(i) == '-')) {
                        i++;
                    }
                    if (i < n && Character.isDigit(source.charAt(i))) {
                        while (i < n && Character.isDigit(source.charAt(i))) {
                            i++;
                        }
                    } else {
                        i = mark; // "2e" is the number 2 followed by the name e
                    }
                }
                String text = source.substring(start, i);
                current.add(new Token(Kind.NUMBER, text, Double.parseDouble(text), new SourcePosition(file, line, column)));
            } else if (Character.isLetter(c) || c == '_') {
                int start = i;
                while (i < n && (Character.isLetterOrDigit(source.charAt(i)) || source.charAt(i) == '_')) {
                    i++;
                }
                current.add(new Token(Kind.NAME, source.substring(start, i), 0, new SourcePosition(file, line, column)));
            } else if (c == '"') {
                int start = ++i;
                while (i < n && source.charAt(i) != '"' && source.charAt(i) != '\n') {
                    i++;
                }
                if (i >= n || source.charAt(i) != '"') {
                    throw new SourcePosition(file, line, column).error("unterminated string", "a closing \"");
                }
                current.add(new Token(Kind.STRING, source.substring(start, i), 0, new SourcePosition(file, line, column)));
                i++;
            } else {
                String symbol = null;
                for (String s : SYMBOLS) {
                    if (source.startsWith(s, i)) {
                        symbol = s;
                        break;
                    }
                }
                if (symbol == null) {
                    throw new SourcePosition(file, line, column).error("unexpected character '" + c + "'",
                            "a name, a number, an operator or a comment");
                }
                current.add(new Token(Kind.SYMBOL, symbol, 0, new SourcePosition(file, line, column)));
                i += symbol.length();
            }
        }
        return statements;
    }

    private static boolean restOfLineBlank(String source, int from) {
        for (int i = from; i < source.length() && source.charAt(i) != '\n'; i++) {
            if (source.charAt(i) == '#') {
                return true;
            }
            if (!Character.isWhitespace(source.charAt(i))) {
                return false;
            }
        }
        return true;
    }
}
