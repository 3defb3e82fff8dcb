package bufq.lang;

/** What a token is. The highlighter colours by kind; the parser decides by kind and text. */
public enum TokenKind {
    /** A reserved word such as {@code where}, {@code and}, {@code live}; text is lowercase. */
    KEYWORD,
    /** An entity, field, function, alias or instruction name ({@code fusion.2}, {@code custom-call}). */
    IDENT,
    /** An integer or decimal, optionally with a size unit ({@code 13}, {@code 1.5MiB}). */
    NUMBER,
    /** A string in double or single quotes with escapes; text includes the quotes. */
    STRING,
    /** {@code = != < <= > >= ~}. */
    OPERATOR,
    /** {@code * / +}: arithmetic, only in an {@code order by} key. */
    ARITH,
    LPAREN, RPAREN, COMMA,
    /** {@code ;} ending a statement, as in SQL shells. */
    SEMICOLON,
    /** {@code ..} in {@code live during a..b}. */
    DOTDOT,
    /** Input the lexer could not read (stray character, unterminated string, unknown unit). */
    ERROR,
    /** Zero-width end of input; always the last token. */
    EOF
}
