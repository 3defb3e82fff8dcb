package bufq.shell.script;

import bufq.lang.NearNames;
import org.graalvm.polyglot.SourceSection;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Explains JavaScript's "Cannot read property 'values' of undefined" for {@code bufq.modul.values}:
 * GraalJS points at the start of the whole expression and names the property it could not read,
 * not the misspelt member before it. This points at that member and, on the bufq objects whose
 * members are known, says which one was meant.
 */
final class UndefinedMember {
    private UndefinedMember() {}

    private static final Pattern READ = Pattern.compile("TypeError: Cannot read property '([^']*)' of (undefined|null)");
    private static final Pattern OWNER = Pattern.compile("(?:.*[^\\w$.])?((?:[\\w$]+\\.)*)([\\w$]+)");

    /** Members of {@code bufq} and {@code bufq.module}, by the expression that names the object. */
    static final List<String> MODULE_OWNERS = List.of("bufq.module");

    /**
     * The message with the column of the undefined member and a did-you-mean, or null when
     * {@code message} is not such an error or the expression is not plain dotted names.
     *
     * @param section where GraalJS located the error (the whole member expression)
     */
    static String explain(String message, SourceSection section) {
        if (message == null || section == null || !section.isAvailable() || section.getSource() == null) return null;
        Matcher r = READ.matcher(message);
        if (!r.find()) return null;
        String text;
        try {
            text = section.getCharacters().toString();
        } catch (RuntimeException e) {
            return null;
        }
        String tail = "." + r.group(1);
        if (!text.endsWith(tail) || text.indexOf('\n') >= 0) return null;
        String object = text.substring(0, text.length() - tail.length());
        Matcher o = OWNER.matcher(object);
        if (!o.matches() || o.group(1).isEmpty()) return null;
        String owner = o.group(1).substring(0, o.group(1).length() - 1);
        String member = o.group(2);
        int column = section.getStartColumn() + o.start(2);
        String where = section.getSource().getName() + ":" + section.getStartLine() + ":" + column;
        List<String> known = owner.equals("bufq") ? ApiKeys.BUFQ : MODULE_OWNERS.contains(owner) ? ApiKeys.MODULE : List.of();
        String hint = known.isEmpty() ? "" : NearNames.hint(member, known);
        if (!known.isEmpty() && hint.isEmpty()) hint = " (" + owner + " has " + String.join(", ", known) + ")";
        return where + ": TypeError: " + owner + "." + member + " is " + r.group(2) + ", so it has no '" + r.group(1) + "'" + hint;
    }
}
