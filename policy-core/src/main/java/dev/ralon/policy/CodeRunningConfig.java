package dev.ralon.policy;

import java.util.List;

/**
 * Files and directories inside a project that a tool reads <em>by itself</em> and runs code from, outside any
 * sandbox, the next time the user runs that tool: build-tool configuration, editor and agent settings, environment
 * loaders. They are not the project's source (which is reviewed as code) but configuration that is easy to miss in a
 * review, and that git can be told to hide ({@code .git/info/exclude}).
 *
 * <p>Used three ways (docs/security.md, "The repository's doors"):
 * <ul>
 *   <li>{@code ralon run} protects each one that exists (the baseline), so a session cannot plant code in them;</li>
 *   <li>{@code ralon check --changed} and {@code --staged} report each one that is added or changed <em>even when
 *       git ignores it</em>, since ignoring is exactly how a planted file stays out of review (but for the user-local
 *       entries, {@link Entry#userLocal()});</li>
 *   <li>{@code ralon init} does not propose them: they belong to the baseline, which every run applies anyway.</li>
 * </ul>
 *
 * <p>Each entry is a path relative to the project's root (the directory holding agent.lock, or a git work tree's top),
 * with {@code /} as separator; an entry ending in {@code /} is a directory and stands for everything beneath it.
 */
public final class CodeRunningConfig {
    private CodeRunningConfig() {
    }

    /**
     * One entry: the relative path, what it makes run, in a few words, and whether it is the user's own local state by
     * design ({@code .idea/}, {@code .vscode/}, {@code .claude/settings.local.json}: editors keep them per user and most
     * projects ignore them): such an entry is reported by {@code check --changed} when git shows it, not when git
     * ignores it, or every pre-commit check of an IDE user would refuse.
     */
    public record Entry(String path, String why, boolean userLocal) {
        Entry(String path, String why) {
            this(path, why, false);
        }

        /** Whether the entry is a directory (its path ends with {@code /}). */
        public boolean directory() {
            return path.endsWith("/");
        }

        /** The path without a trailing {@code /}. */
        public String bare() {
            return directory() ? path.substring(0, path.length() - 1) : path;
        }

        /** Whether the relative path {@code rel} (with {@code /}) is this entry or lies beneath it. */
        public boolean covers(String rel) {
            return rel.equals(bare()) || directory() && rel.startsWith(path);
        }
    }

    /** The list, in a fixed order. */
    public static final List<Entry> ENTRIES = List.of(
            new Entry(".mvn/jvm.config", "options of every mvn's JVM (-javaagent runs code)"),
            new Entry(".mvn/maven.config", "options of every mvn (extensions, settings)"),
            new Entry(".mvn/extensions.xml", "Maven core extensions: code loaded into every mvn"),
            new Entry(".mvn/wrapper/", "the Maven Wrapper's distribution address and jar: what ./mvnw runs"),
            new Entry("gradle/wrapper/", "the Gradle Wrapper's distribution address and jar: what ./gradlew runs"),
            new Entry(".npmrc", "npm's script-shell, node-options and registry for every npm in the project"),
            new Entry(".yarnrc.yml", "yarn's yarnPath and plugins run code"),
            new Entry(".envrc", "direnv runs it on entering the directory"),
            new Entry(".vscode/", "editor tasks (runOn folderOpen), launch and settings run code", true),
            new Entry(".idea/", "IDE run configurations and startup tasks", true),
            new Entry(".claude/settings.json", "Claude Code hooks and permissions: commands the next session runs"),
            new Entry(".claude/settings.local.json", "Claude Code hooks and permissions (local)", true),
            new Entry(".mcp.json", "MCP servers: commands the agent starts"),
            new Entry(".gemini/settings.json", "Gemini CLI hooks and MCP servers"),
            new Entry(".codex/", "Codex configuration and hooks"),
            new Entry(".pre-commit-config.yaml", "pre-commit runs the hooks it names at every commit"),
            new Entry(".husky/", "husky's git hooks (core.hooksPath)"),
            new Entry(".cargo/config.toml", "Cargo runners, rustc wrapper and linker"),
            new Entry(".devcontainer/", "dev container lifecycle commands"));

    /** The entry covering the relative path {@code rel} ({@code /} separators), or null. */
    public static Entry covering(String rel) {
        for (Entry e : ENTRIES) {
            if (e.covers(rel)) {
                return e;
            }
        }
        return null;
    }
}
