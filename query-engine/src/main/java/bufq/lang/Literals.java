package bufq.lang;

import java.math.BigDecimal;

/** The values of a query's literal tokens, and how a string is written back as one. */
final class Literals {
    private Literals() {}

    /** A STRING token's text; escapes only a regular expression has ({@code \\(}) are refused here. */
    static String string(Token t) throws QueryException {
        String v = Lexer.decodeString(t.text());
        if (v == null) throw new QueryException(t.start(), t.end(), Lexer.BAD_ESCAPE);
        return v;
    }

    /** A NUMBER token's value: a Long (a size with a unit in bytes), or a Double when it has a point and no unit. */
    static Object number(Token t) throws QueryException {
        BigDecimal v = Lexer.numberValue(t.text());
        if (v == null) throw new QueryException(t.start(), t.end(), "bad number '" + t.text() + "'");
        boolean unit = !Lexer.splitNumber(t.text())[1].isEmpty();
        if (!unit && t.text().contains(".")) return v.doubleValue();
        try {
            return v.longValueExact();
        } catch (ArithmeticException e) {
            if (unit && v.stripTrailingZeros().scale() > 0)
                throw new QueryException(t.start(), t.end(), "'" + t.text() + "' is not a whole number of bytes");
            throw new QueryException(t.start(), t.end(), "number '" + t.text() + "' is too large");
        }
    }

    /** {@code text} as a query's string literal, quoted and escaped. */
    static String quote(String text) {
        return '"' + text.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
    }
}
