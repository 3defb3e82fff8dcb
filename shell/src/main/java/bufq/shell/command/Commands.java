package bufq.shell.command;

import bufq.shell.api.Command;
import bufq.shell.api.CommandTable;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The command registry: names and aliases to commands, in the order {@code help} lists them. */
public final class Commands implements CommandTable {
    private final List<Command> all;
    private final Map<String, Command> byName = new LinkedHashMap<>();

    public Commands(List<Command> commands) {
        this.all = List.copyOf(commands);
        for (Command c : all) {
            byName.put(c.name(), c);
            for (String a : c.aliases()) byName.put(a, c);
        }
    }

    /** Every built-in command. Add a command here. */
    public static Commands standard() {
        return new Commands(List.of(
                new LoadCommand(),
                new ModulesCommand(),
                new UseCommand(),
                new SummaryCommand(),
                new FieldsCommand(),
                new PeakCommand(),
                new TimelineCommand(),
                new MapCommand(),
                new PaddingCommand(),
                new FragmentationCommand(),
                new BlameCommand(),
                new PeaksCommand(),
                new WhyCommand(),
                new OomCommand(),
                new CheckCommand(),
                new DiffCommand(),
                new WhatifCommand(),
                new FitCommand(),
                new ForecastCommand(),
                new AdviseCommand(),
                new ExportCommand(),
                new SqlCommand(),
                new FormatCommand(),
                new SetCommand(),
                new OutputCommand(),
                new TimerCommand(),
                new HistoryCommand(),
                new RunCommand(),
                new JsCommand(),
                new HelpCommand(),
                new ClearCommand(),
                new QuitCommand()));
    }

    /** The command called {@code name} (or an alias), in any case: {@code SUMMARY} is {@code summary}. */
    @Override public Command byName(String name) { return byName.get(name.toLowerCase(Locale.ROOT)); }
    @Override public List<Command> all() { return all; }
    @Override public List<String> names() { return new ArrayList<>(byName.keySet()); }
}
