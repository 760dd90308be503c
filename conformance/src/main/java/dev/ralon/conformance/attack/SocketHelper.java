package dev.ralon.conformance.attack;

import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A helper of the user's, run OUTSIDE the sandbox by the kit: listens on a Unix socket and, for the first client that
 * connects, appends {@code pwned} to a file, as a tmux server runs {@code run-shell} or D-Bus activates a service for
 * whoever reaches it. Usage: {@code SocketHelper SOCKET FILE}; exits after one client, or after 60 seconds.
 */
public final class SocketHelper {
    private SocketHelper() {
    }

    public static void main(String[] args) throws Exception {
        Path socket = Path.of(args[0]);
        Path file = Path.of(args[1]);
        Thread timeout = new Thread(() -> {
            try {
                Thread.sleep(60_000);
            } catch (InterruptedException e) {
                return;
            }
            System.exit(3);
        });
        timeout.setDaemon(true);
        timeout.start();
        try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            server.bind(UnixDomainSocketAddress.of(socket));
            System.out.println("LISTENING");
            System.out.flush();
            try (SocketChannel client = server.accept()) {
                Files.write(file, "pwned\n".getBytes(StandardCharsets.UTF_8), StandardOpenOption.APPEND);
            }
        } finally {
            Files.deleteIfExists(socket);
        }
    }
}
