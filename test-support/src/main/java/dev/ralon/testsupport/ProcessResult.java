package dev.ralon.testsupport;

/**
 * What a finished child process left: its exit status, what it wrote, and its pid. The one result record of the
 * tests' child processes ({@link TestProcess}).
 *
 * @param code its exit status (128 + N when killed by signal N, as a shell reports it)
 * @param out  its standard output (UTF-8); with {@link TestProcess#mergeStderr()} also its standard error
 * @param err  its standard error (UTF-8); empty when merged into {@code out}
 * @param pid  its process id
 */
public record ProcessResult(int code, String out, String err, long pid) {
    /** What the process answered, without its pid (0): to compare the answers of two processes with equals. */
    public ProcessResult answer() {
        return new ProcessResult(code, out, err, 0);
    }

    /** Standard error, line by line. */
    public java.util.List<String> errLines() {
        return err.lines().toList();
    }

    /** Standard output then standard error, for failure messages. */
    public String all() {
        return err.isEmpty() ? out : out + "\n--- stderr ---\n" + err;
    }
}
