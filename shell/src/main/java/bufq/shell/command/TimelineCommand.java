package bufq.shell.command;

import bufq.api.Reports;
import bufq.model.HloModule;
import bufq.shell.api.ArgGrammar;
import bufq.shell.api.ArgKind;
import bufq.shell.api.Command;
import bufq.shell.api.ParsedArgs;
import bufq.shell.session.CommandException;
import bufq.shell.session.Engine;
import bufq.shell.api.CommandPlan;
import bufq.shell.api.CommandContext;
import bufq.shell.session.Status;

import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;

final class TimelineCommand implements Command {
    @Override public String name() { return "timeline"; }
    private static final ArgGrammar GRAMMAR = ArgGrammar.of("timeline").choice("by", "steps", "events")
            .oneOf(false, g -> g.count("color", 0).value("space", ArgKind.SPACE))
            .count("width", 20, Reports.MAX_CHART_WIDTH).as("W")
            .oneOf(false, g -> g.value("--svg", ArgKind.FILE).value("--html", ArgKind.FILE))
            .flag("--force");

    @Override public ArgGrammar grammar() { return GRAMMAR; }
    @Override public String brief() { return "A chart of occupied bytes over the schedule (terminal, SVG or HTML)."; }

    @Override public String description() {
        return "Charts occupied bytes per step (each held byte once) with block characters, W columns wide\n"
                + "(default: the terminal), the peak (the first step with the most) marked; the dump's own label,\n"
                + "claimed_peak, need not be that step. With --svg or --html writes a standalone picture stacked by\n"
                + "colour instead (the HTML shows step, instruction and bytes on hover); an existing file is only\n"
                + "replaced with --force.\n"
                + "'by events' charts a proto dump's heap-simulator trace instead (heap bytes after each ALLOC, FREE\n"
                + "or SHARE_WITH, XProf's x-axis) and sets the trace's own peak beside bufq's per-step peak, comparing\n"
                + "them at the step where the trace peaks and at bufq's peak step.";
    }

    @Override public List<String> examples() {
        return List.of("timeline", "timeline color 1 width 120", "timeline --html timeline.html", "timeline by events");
    }

    @Override public CommandPlan plan(CommandContext ctx, String args) throws CommandException {
        return CommandPlan.parsed(GRAMMAR, args, this::run);
    }

    private Status run(CommandContext ctx, ParsedArgs a) throws CommandException, Engine.Failure, IOException {
        HloModule m = ctx.modules().requireFor("timeline", ctx.out()::info);
        String by = a.has("by") ? a.text("by").toLowerCase(Locale.ROOT) : null;
        OptionalInt color = a.color(m);
        OptionalInt width = a.count("width");
        String svg = a.text("--svg");
        String html = a.text("--html");
        boolean force = a.has("--force");
        if ("events".equals(by)) {
            for (String other : List.of("--svg", "--html", "color", "space", "--force"))
                if (a.has(other)) throw a.error(other, "timeline by events takes only width W", List.of());
            ctx.out().print(Reports.timelineEvents(m, width.orElse(ctx.out().terminalWidth())));
            return Status.OK;
        }
        if (svg != null) Pictures.write(ctx, svg, force, Reports.timelineSvg(m, color));
        else if (html != null) Pictures.write(ctx, html, force, Reports.timelineHtml(m, color));
        else ctx.out().print(Reports.timeline(m, color, width.orElse(ctx.out().terminalWidth())));
        return Status.OK;
    }
}
