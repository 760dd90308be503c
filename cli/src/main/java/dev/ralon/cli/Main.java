package dev.ralon.cli;

/** Entry point of the {@code ralon} executable. */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        int code = Ralon.execute(args);
        System.out.flush();
        System.exit(code);
    }
}
