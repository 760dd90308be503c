package dev.ralon.policy.git;

/**
 * git could not answer (not a repository, unknown revision, no git, a history too shallow to answer). The message is
 * one line that says what to do where Ralon knows it.
 */
public class GitException extends Exception {
    private static final long serialVersionUID = 1L;

    public GitException(String message) {
        super(message);
    }
}
