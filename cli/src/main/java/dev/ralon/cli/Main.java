package dev.ralon.cli;

import java.io.PrintWriter;

/** Entry point of the {@code ralon} executable. */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        // `ralon check PATH...` is called before every write an agent makes: it skips picocli (FastCheck's contract).
        int code = FastCheck.applies(args)
                ? FastCheck.run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true))
                : Ralon.execute(args);
        System.out.flush();
        System.exit(code);
    }
}
