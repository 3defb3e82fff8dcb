package bufq.shell.command;

import bufq.shell.session.Command;
import bufq.shell.session.CommandException;
import bufq.shell.session.Setting;
import bufq.shell.session.Settings;
import bufq.shell.session.Shell;
import bufq.shell.session.Status;
import bufq.shell.session.Suggest;
import bufq.table.ColumnType;
import bufq.table.Table;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

final class SetCommand implements Command {
    @Override public String name() { return "set"; }
    @Override public String synopsis() { return "set [NAME [VALUE]]"; }

    @Override public String brief() { return "Shows or changes settings (see 'help settings')."; }

    @Override public String description() {
        return "Changes a setting; with NAME alone shows it, with nothing lists them all (see 'help settings').";
    }

    @Override public List<String> examples() { return List.of("set", "set maxrows 50", "set rawsizes on", "set threshold 64KiB"); }

    /** {@code set tiling NAME} of a model not known yet: the init script may register it. */
    @Override public boolean usesScripts(Shell shell, String args) {
        List<String> words = Arrays.asList(args.split("\\s+"));
        return words.size() == 2 && Setting.byKey(words.get(0)) == Setting.TILING
                && shell.settings().tilingNamed(words.get(1)) == null;
    }

    @Override public Status run(Shell shell, List<String> args) throws CommandException, IOException {
        arity(args, 0, 2);
        if (args.isEmpty()) {
            shell.print(table(shell, Arrays.asList(Setting.values())));
            return Status.OK;
        }
        Setting s = Setting.byKey(args.get(0));
        if (s == null) {
            List<String> keys = Arrays.stream(Setting.values()).map(Setting::key).toList();
            throw new CommandException("unknown setting '" + args.get(0) + "'" + Suggest.hint(args.get(0), keys)
                    + " (settings: " + String.join(", ", keys) + ")");
        }
        if (args.size() == 1) shell.print(table(shell, List.of(s)));
        else {
            // a model a script registered is tried on the module now, not at the next query
            if (s == Setting.TILING) TilingTrial.check(shell.settings().tilingNamed(args.get(1).trim().toLowerCase(Locale.ROOT)),
                    shell.modules().current(), shell.settings().text(s));
            shell.settings().set(s, args.get(1));
        }
        return Status.OK;
    }

    static Table table(Shell shell, List<Setting> settings) {
        Table.Builder b = Table.builder().column("name", ColumnType.STRING).column("value", ColumnType.STRING)
                .column("values", ColumnType.STRING).column("default", ColumnType.STRING).column("doc", ColumnType.STRING);
        for (Setting s : settings) b.row(s.key(), shell.settings().text(s), s.syntax(), Settings.defaultText(s), s.doc());
        return b.build();
    }
}
