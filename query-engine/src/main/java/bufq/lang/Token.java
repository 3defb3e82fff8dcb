package bufq.lang;

/** A token with its half-open source span {@code [start, end)}; {@code text} is the source slice. */
public record Token(TokenKind kind, int start, int end, String text) {
    public boolean is(TokenKind k, String t) { return kind == k && text.equals(t); }
    public boolean isKeyword(String k) { return kind == TokenKind.KEYWORD && text.equalsIgnoreCase(k); }
}
