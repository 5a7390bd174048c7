package dev.weft.rpc.proxy;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcResult;
import dev.weft.rpc.common.URL;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/** A fake consumer-side invoker: records every invocation and answers with a programmable function. */
final class RecordingInvoker<T> implements Invoker<T> {

    static final URL URL = dev.weft.rpc.common.URL.valueOf("weft://user:secret@10.0.0.1:20880/sample?proxy=javassist");

    private final Class<T> type;
    private final URL url;
    private final Function<Invocation, Result> answer;
    private final List<Invocation> invocations = new CopyOnWriteArrayList<>();

    RecordingInvoker(Class<T> type, Function<Invocation, Result> answer) {
        this(type, URL, answer);
    }

    RecordingInvoker(Class<T> type, URL url, Function<Invocation, Result> answer) {
        this.type = type;
        this.url = url;
        this.answer = answer;
    }

    /** Answers every call with {@code value}. */
    static <T> RecordingInvoker<T> returning(Class<T> type, Object value) {
        return new RecordingInvoker<>(type, invocation -> RpcResult.of(value));
    }

    List<Invocation> invocations() {
        return invocations;
    }

    Invocation last() {
        return invocations.get(invocations.size() - 1);
    }

    @Override
    public Class<T> getInterface() {
        return type;
    }

    @Override
    public Result invoke(Invocation invocation) {
        invocations.add(invocation);
        return answer.apply(invocation);
    }

    @Override
    public URL getUrl() {
        return url;
    }

    @Override
    public boolean isAvailable() {
        return true;
    }

    @Override
    public void destroy() {
    }
}
