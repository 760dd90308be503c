package dev.ralon.cli;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ralon --help} as a user reads it: each command's summary (the first line of its description, which picocli
 * shows in the command list) is a whole sentence, and no line of the help is wider than the 80 columns picocli wraps at
 * (a wrapped example line loses its indentation and reads as two).
 */
class HelpTextTest {
    @Test
    void everySummaryIsAWholeSentence() {
        CommandLine cl = Ralon.commandLine();
        for (Map.Entry<String, CommandLine> e : cl.getSubcommands().entrySet()) {
            String summary = summary(e.getValue());
            assertTrue(summary.endsWith("."), e.getKey() + "'s summary is cut mid-sentence: " + summary);
            assertTrue(Character.isUpperCase(summary.charAt(0)), e.getKey() + ": " + summary);
        }
    }

    @Test
    void theTopLevelHelpFitsEightyColumnsAndShowsTheSummariesWhole() {
        CommandLine cl = Ralon.commandLine();
        String usage = cl.getUsageMessage(CommandLine.Help.Ansi.OFF);
        for (String line : usage.split("\n")) {
            assertTrue(line.length() <= 80, "wider than 80 columns: " + line);
        }
        String flat = usage.replaceAll("\\s+", " ");
        for (Map.Entry<String, CommandLine> e : cl.getSubcommands().entrySet()) {
            String summary = summary(e.getValue());
            assertTrue(flat.contains(summary.replaceAll("\\s+", " ")), e.getKey() + "'s summary not whole in:\n" + usage);
        }
    }

    /** What picocli shows in the command list: the header's first line, or the description's when there is none. */
    private static String summary(CommandLine sub) {
        String[] header = sub.getCommandSpec().usageMessage().header();
        String[] lines = header.length > 0 ? header : sub.getCommandSpec().usageMessage().description();
        assertTrue(lines.length > 0, sub.getCommandName() + " has no description");
        return lines[0].replace("%n", "").trim();
    }
}
