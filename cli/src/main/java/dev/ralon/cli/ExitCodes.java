package dev.ralon.cli;

/** The CLI's exit codes: the same for every command (README, "Exit codes"). */
final class ExitCodes {
    /** Fine: nothing given is protected, the listing or report succeeded, a dry-run plan is enforceable. */
    static final int OK = 0;
    /**
     * Something to act on was found: a given path is protected (check), an agent.lock section of {@code init --agents}
     * is out of date (check without paths), or the plan cannot be enforced (run --dry-run).
     */
    static final int PROTECTED = 1;
    /** An error: no policy, a bad policy, bad arguments, unknown backend, refused enforcement, command not found. */
    static final int ERROR = 2;

    private ExitCodes() {
    }
}
