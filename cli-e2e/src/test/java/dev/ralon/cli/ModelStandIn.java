package dev.ralon.cli;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import org.json.JSONArray;
import org.json.JSONObject;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;

/**
 * A local stand-in for an agent's model API, on the loopback interface only: it answers each request that offers
 * the agent's write tool with the next scripted tool call, and every other request (and each one after the script)
 * with the text "done", so the agent ends its turn. Speaks just enough of three protocols, streamed as server-sent
 * events the way the CLIs ask for them: Anthropic Messages ({@code POST /v1/messages}, Claude Code), OpenAI Responses
 * ({@code POST /v1/responses}, Codex) and Gemini ({@code :streamGenerateContent?alt=sse} and {@code :generateContent},
 * Gemini CLI). Every request body is kept, so a test can check what the agent told the model (a hook's refusal
 * reaches the model as the tool's result).
 */
final class ModelStandIn implements AutoCloseable {
    /** One scripted tool call: the tool's name and its arguments (for apply_patch, {"patch": text}). */
    record Call(String tool, JSONObject args) {
    }

    private final HttpServer server;
    private final List<Call> script;
    private final List<String> bodies = new ArrayList<>();
    private int next;

    ModelStandIn(List<Call> script) throws IOException {
        this.script = List.copyOf(script);
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(Executors.newFixedThreadPool(4));
        server.createContext("/", this::handle);
        server.start();
    }

    String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    synchronized List<String> bodies() {
        return List.copyOf(bodies);
    }

    synchronized int callsMade() {
        return next;
    }

    /** The next scripted call if the request offers {@code tool}, else null (answer with text). */
    private synchronized Call take(boolean offersTool) {
        if (!offersTool || next >= script.size()) {
            return null;
        }
        return script.get(next++);
    }

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            byte[] raw = ex.getRequestBody().readAllBytes();
            String body = new String(raw, StandardCharsets.UTF_8);
            synchronized (this) {
                bodies.add(body);
            }
            String path = ex.getRequestURI().toString();
            if (!"POST".equals(ex.getRequestMethod())) {
                reply(ex, 404, "application/json", "{}");
                return;
            }
            JSONObject req = body.isBlank() ? new JSONObject() : new JSONObject(body);
            if (path.startsWith("/v1/messages")) {
                anthropic(ex, req);
            } else if (path.contains("/responses")) {
                openai(ex, req);
            } else if (path.contains(":generateContent") || path.contains(":streamGenerateContent")) {
                gemini(ex, req, path.contains("alt=sse"));
            } else {
                reply(ex, 404, "application/json", "{}");
            }
        } catch (RuntimeException e) {
            e.printStackTrace();
            reply(ex, 500, "application/json", "{}");
        }
    }

    private static boolean offers(JSONArray tools, String key, String name) {
        for (int i = 0; tools != null && i < tools.length(); i++) {
            if (name.equals(tools.getJSONObject(i).optString(key))) {
                return true;
            }
        }
        return false;
    }

    private void anthropic(HttpExchange ex, JSONObject req) throws IOException {
        Call call = take(offers(req.optJSONArray("tools"), "name", "Write"));
        JSONObject message = new JSONObject().put("id", "msg_" + System.nanoTime()).put("type", "message")
                .put("role", "assistant").put("model", req.optString("model")).put("content", new JSONArray())
                .put("stop_reason", JSONObject.NULL).put("stop_sequence", JSONObject.NULL)
                .put("usage", new JSONObject().put("input_tokens", 10).put("output_tokens", 1));
        if (!req.optBoolean("stream")) {
            message.put("content", new JSONArray().put(new JSONObject().put("type", "text").put("text", "done")))
                    .put("stop_reason", "end_turn");
            reply(ex, 200, "application/json", message.toString());
            return;
        }
        List<String[]> events = new ArrayList<>();
        events.add(new String[] {"message_start", new JSONObject().put("type", "message_start").put("message", message).toString()});
        JSONObject block;
        JSONObject delta;
        if (call != null) {
            block = new JSONObject().put("type", "tool_use").put("id", "toolu_" + next).put("name", call.tool())
                    .put("input", new JSONObject());
            delta = new JSONObject().put("type", "input_json_delta").put("partial_json", call.args().toString());
        } else {
            block = new JSONObject().put("type", "text").put("text", "");
            delta = new JSONObject().put("type", "text_delta").put("text", "done");
        }
        events.add(new String[] {"content_block_start", new JSONObject().put("type", "content_block_start").put("index", 0)
                .put("content_block", block).toString()});
        events.add(new String[] {"content_block_delta", new JSONObject().put("type", "content_block_delta").put("index", 0)
                .put("delta", delta).toString()});
        events.add(new String[] {"content_block_stop", new JSONObject().put("type", "content_block_stop").put("index", 0).toString()});
        events.add(new String[] {"message_delta", new JSONObject().put("type", "message_delta")
                .put("delta", new JSONObject().put("stop_reason", call != null ? "tool_use" : "end_turn").put("stop_sequence", JSONObject.NULL))
                .put("usage", new JSONObject().put("output_tokens", 5)).toString()});
        events.add(new String[] {"message_stop", new JSONObject().put("type", "message_stop").toString()});
        sse(ex, events);
    }

    private void openai(HttpExchange ex, JSONObject req) throws IOException {
        JSONArray tools = req.optJSONArray("tools");
        Call call = take(offers(tools, "name", "apply_patch"));
        String id = "resp_" + System.nanoTime();
        JSONObject item;
        if (call == null) {
            item = new JSONObject().put("type", "message").put("id", "m_" + id).put("role", "assistant").put("status", "completed")
                    .put("content", new JSONArray().put(new JSONObject().put("type", "output_text").put("text", "done")
                            .put("annotations", new JSONArray())));
        } else if (offers(tools, "type", "custom")) { // apply_patch as a free-form tool: the patch is the input
            item = new JSONObject().put("type", "custom_tool_call").put("id", "ctc_" + id).put("call_id", "call_" + id)
                    .put("name", "apply_patch").put("input", call.args().getString("patch")).put("status", "completed");
        } else {
            item = new JSONObject().put("type", "function_call").put("id", "fc_" + id).put("call_id", "call_" + id)
                    .put("name", "apply_patch").put("arguments", new JSONObject().put("input", call.args().getString("patch")).toString())
                    .put("status", "completed");
        }
        JSONObject usage = new JSONObject().put("input_tokens", 10).put("output_tokens", 5).put("total_tokens", 15)
                .put("input_tokens_details", new JSONObject().put("cached_tokens", 0))
                .put("output_tokens_details", new JSONObject().put("reasoning_tokens", 0));
        sse(ex, List.of(
                new String[] {"response.created", new JSONObject().put("type", "response.created")
                        .put("response", new JSONObject().put("id", id).put("status", "in_progress").put("output", new JSONArray())).toString()},
                new String[] {"response.output_item.done", new JSONObject().put("type", "response.output_item.done")
                        .put("output_index", 0).put("item", item).toString()},
                new String[] {"response.completed", new JSONObject().put("type", "response.completed")
                        .put("response", new JSONObject().put("id", id).put("status", "completed")
                                .put("output", new JSONArray().put(item)).put("usage", usage)).toString()}));
    }

    private void gemini(HttpExchange ex, JSONObject req, boolean stream) throws IOException {
        boolean offersWrite = false;
        JSONArray tools = req.optJSONArray("tools");
        for (int i = 0; tools != null && i < tools.length(); i++) {
            offersWrite |= offers(tools.getJSONObject(i).optJSONArray("functionDeclarations"), "name", "write_file");
        }
        Call call = take(offersWrite);
        JSONObject part = call != null
                ? new JSONObject().put("functionCall", new JSONObject().put("name", call.tool()).put("args", call.args()))
                : new JSONObject().put("text", "done");
        JSONObject resp = new JSONObject()
                .put("candidates", new JSONArray().put(new JSONObject().put("index", 0).put("finishReason", "STOP")
                        .put("content", new JSONObject().put("role", "model").put("parts", new JSONArray().put(part)))))
                .put("usageMetadata", new JSONObject().put("promptTokenCount", 10).put("candidatesTokenCount", 5).put("totalTokenCount", 15));
        if (stream) {
            sse(ex, List.<String[]>of(new String[] {null, resp.toString()}));
        } else {
            reply(ex, 200, "application/json", resp.toString());
        }
    }

    private static void reply(HttpExchange ex, int status, String type, String body) throws IOException {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", type);
        ex.sendResponseHeaders(status, b.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(b);
        }
    }

    private static void sse(HttpExchange ex, List<String[]> events) throws IOException {
        StringBuilder sb = new StringBuilder();
        for (String[] e : events) {
            if (e[0] != null) {
                sb.append("event: ").append(e[0]).append('\n');
            }
            sb.append("data: ").append(e[1]).append("\n\n");
        }
        reply(ex, 200, "text/event-stream", sb.toString());
    }

    @Override
    public void close() {
        server.stop(0);
        ((java.util.concurrent.ExecutorService) server.getExecutor()).shutdownNow();
    }
}
