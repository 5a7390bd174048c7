package dev.weft.rpc.protocol.weft;

import dev.weft.rpc.common.CallOptions;
import dev.weft.rpc.common.Cancellation;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.Results;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.RpcResult;
import dev.weft.rpc.common.RpcInvocation;
import dev.weft.rpc.protocol.filter.ExecuteLimits;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.timeout.IdleStateEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The provider's per-connection handler, on the event loop: answers heartbeats, decodes requests
 * (service, pinned serialization id, method, arguments by declared types) and hands each call to
 * the server's bounded executor. A CANCEL event from the consumer skips its call if no thread has
 * started it yet (no answer is sent; the skip is counted per service), and cancels the future of an
 * async implementation still pending. An implementation that answers with a future holds no
 * business thread: its answer is written when the future completes (on the thread completing it),
 * or abandoned when the call's deadline passes first. A request over
 * {@code payload} that the decoder skipped is answered PAYLOAD_TOO_LARGE. Anything that is not a
 * valid frame closes the connection with a log line; the server keeps serving other connections.
 * A call of a method whose {@code executes=auto} limit is full is answered NOT_PROCESSED as it is
 * read ({@link ExportedService#admitOnReceipt}), without queueing it for a thread.
 */
final class ServerHandler extends ChannelInboundHandlerAdapter {

    private static final Logger LOG = LoggerFactory.getLogger(ServerHandler.class);

    private final WeftServer server;
    /** Two-way calls of this connection handed to the executor and not started yet, by request id. */
    private final Map<Long, Call> queued = new ConcurrentHashMap<>();
    /** Calls decoded during the current read, handed to the executor when the read completes (event loop only). */
    private final List<Call> toDispatch = new ArrayList<>();
    /** Two-way calls of this connection whose implementation answered with a future not completed yet, by request id. */
    private final Map<Long, Call> running = new ConcurrentHashMap<>();
    /** The consumer's clock as seen from this provider, from the readings its requests and PINGs carry (event loop only). */
    private final PeerClock peerClock = new PeerClock();

    ServerHandler(WeftServer server) {
        this.server = server;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        server.channelOpened(ctx.channel());
        super.channelActive(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        dispatch(); // calls read just before the close still get their turn (and their answer or NOT_PROCESSED)
        server.channelClosed(ctx.channel());
        super.channelInactive(ctx);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof FrameDecoder.Oversized oversized) {
            refuseOversized(ctx, oversized);
            return;
        }
        Frame frame = (Frame) msg;
        try {
            if (frame.isEvent()) {
                if (frame.status() == Frame.EVENT_PING) {
                    if (frame.body().readableBytes() >= Long.BYTES) {
                        peerClock.toLocal(frame.body().getLong(frame.body().readerIndex()), server.ticker().read());
                    }
                    ctx.writeAndFlush(Frame.event(ctx.alloc(), Frame.EVENT_PONG, new byte[0]), ctx.voidPromise());
                } else if (frame.status() == Frame.EVENT_CANCEL) {
                    onCancel(frame.requestId());
                }
            } else if (frame.isRequest()) {
                onRequest(ctx.channel(), frame);
            }
        } finally {
            frame.release();
        }
    }

    private void onRequest(Channel channel, Frame frame) {
        long arrival = server.ticker().read();
        RequestCodec.Head head;
        try {
            head = RequestCodec.readHead(frame.body());
        } catch (BadFrameBodyException e) {
            reply(channel, frame, Status.BAD_REQUEST, e.getMessage());
            return;
        }
        ExportedService service = server.service(head.service());
        if (service == null) {
            reply(channel, frame, Status.SERVICE_NOT_FOUND, "service: " + head.service() + " (expected: a service key exported on port "
                    + server.port() + ": " + server.serviceKeys() + ")");
            return;
        }
        // Counted before the shutdown check: a shutdown starting meanwhile either sees this call
        // in flight and waits for it, or is seen here, so no call slips past it unanswered.
        service.callAccepted();
        boolean queuedCall = false;
        try {
            if (server.isDraining() || service.isClosing()) {
                reply(channel, frame, Status.NOT_PROCESSED, "shutting down: " + head.service());
            } else {
                queuedCall = queue(channel, frame, head, service, arrival);
            }
        } finally {
            if (!queuedCall) {
                service.callDone();
            }
        }
    }

    /** Decodes a call of an open service and hands it to the executor; false when it answered it instead. */
    private boolean queue(Channel channel, Frame frame, RequestCodec.Head head, ExportedService service, long arrival) {
        long id = frame.requestId();
        if (frame.serializationId() != service.serialization().getId()) {
            reply(channel, frame, Status.BAD_REQUEST, "serialization id: " + frame.serializationId() + " (expected: "
                    + service.serialization().getId() + ", the " + service.serialization() + " serialization of "
                    + head.service() + ")");
            return false;
        }
        Method method = service.methods().find(head.methodName(), head.descriptor());
        if (method == null) {
            reply(channel, frame, Status.SERVICE_NOT_FOUND, "method: " + MethodTable.key(head.methodName(), head.descriptor())
                    + " (expected: one of " + service.methods().available() + ")");
            return false;
        }
        Object[] arguments;
        try {
            arguments = RequestCodec.readArguments(frame.body(), service.serialization(), method);
        } catch (BadFrameBodyException e) {
            reply(channel, frame, Status.BAD_REQUEST, e.getMessage());
            return false;
        }
        // The deadline counts from when the consumer sent the frame, placed on this provider's clock,
        // not from when it was read: a frame read late (the provider was stopped) has less time left.
        long sent = head.sentNanos() == RequestCodec.NOT_STAMPED ? arrival : peerClock.toLocal(head.sentNanos(), arrival);
        long deadline = frame.deadlineMillis() == 0 ? Long.MAX_VALUE
                : sent + TimeUnit.MILLISECONDS.toNanos(frame.deadlineMillis());
        // admitted as it is read, before the queue: the excess of an overload takes no thread and waits in no queue
        ExecuteLimits.Admission admission = service.admitOnReceipt(method.getName());
        if (admission.isRefused()) {
            reply(channel, frame, Status.NOT_PROCESSED, "Server busy: method " + method.getName() + " of " + head.service()
                    + " is at its adaptive limit (executes=auto); not run, safe to retry");
            return false;
        }
        Call call = new Call(channel, id, frame.isTwoWay(), service, method, arguments, head.attachments(), deadline, admission);
        if (call.twoWay) {
            queued.put(id, call);
        }
        toDispatch.add(call);
        return true;
    }

    /**
     * Hands this read's calls to the executor, once every frame of the read has been applied: a
     * CANCEL that arrived right behind its request (a provider that was paused, and reads the backlog
     * of consumers that gave up meanwhile) claims its call first, and the call never runs. A call
     * whose deadline has passed (its consumer gave up, whether or not its CANCEL has arrived) is
     * answered DEADLINE_EXPIRED here and never runs.
     */
    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) throws Exception {
        dispatch();
        super.channelReadComplete(ctx);
    }

    private void dispatch() {
        if (toDispatch.isEmpty()) {
            return;
        }
        List<Call> calls = new ArrayList<>(toDispatch);
        toDispatch.clear();
        long now = server.ticker().read();
        for (Call call : calls) {
            if (call.isClaimed()) {
                continue; // cancelled in the same read: counted done by the cancel
            }
            if (call.isExpired(now)) {
                call.expire();
                continue;
            }
            try {
                server.executor().execute(call);
            } catch (RejectedExecutionException e) {
                if (call.takeFromQueue()) {
                    try {
                        call.answerStatus(Status.NOT_PROCESSED, "server busy: " + server.settings().threads() + " threads and "
                                + server.settings().queues() + " queued calls in use (keys: threads, queues)");
                    } finally {
                        call.done();
                    }
                }
            }
        }
    }

    /** Only that call is refused; its body was discarded unread and the connection carries on. */
    private void refuseOversized(ChannelHandlerContext ctx, FrameDecoder.Oversized oversized) {
        String reason = "request body: " + oversized.bodyLength() + " bytes (expected: <= payload "
                + oversized.maxBodyLength() + ", this provider's limit; not read)";
        server.warnings().warn(PeerWarnings.Kind.OVERSIZED_REQUEST, "weft server: request " + oversized.requestId() + " from " + ctx.channel().remoteAddress()
                + " refused: " + reason);
        ctx.writeAndFlush(ResponseCodec.status(ctx.alloc(), oversized.requestId(), Status.PAYLOAD_TOO_LARGE, reason),
                ctx.voidPromise());
    }

    /**
     * The consumer gave up on call {@code id}: skip it unless a thread has already taken it; when it
     * is running as an async implementation's pending future, cancel that future (no answer is sent).
     */
    private void onCancel(long id) {
        Call call = queued.remove(id);
        if (call != null && call.claim()) {
            call.done();
            call.service.callCancelled();
            LOG.debug("weft server: call {} from {} cancelled by its consumer before it ran; skipped",
                    id, call.channel.remoteAddress());
            return;
        }
        Call pending = running.remove(id);
        if (pending != null) {
            pending.service.callCancelled();
            pending.cancelRunning();
            LOG.debug("weft server: call {} from {} cancelled by its consumer while its implementation's future was pending",
                    id, pending.channel.remoteAddress());
        }
    }

    private void reply(Channel channel, Frame request, int status, String reason) {
        if (request.isTwoWay()) {
            channel.writeAndFlush(ResponseCodec.status(channel.alloc(), request.requestId(), status, reason),
                    channel.voidPromise());
        }
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt instanceof IdleStateEvent) {
            server.warnings().warn(PeerWarnings.Kind.SILENT_PEER, "weft server: closing " + ctx.channel().remoteAddress()
                    + ": silent for 3 heartbeats (" + server.settings().heartbeatMillis() + " ms each)");
            ctx.close();
            return;
        }
        super.userEventTriggered(ctx, evt);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        Throwable error = cause instanceof DecoderException && cause.getCause() != null
                && !(cause instanceof MalformedFrameException) ? cause.getCause() : cause;
        if (error instanceof MalformedFrameException bad) {
            server.warnings().warn(bad.kind(), "weft server: closing " + ctx.channel().remoteAddress() + ": "
                    + bad.getMessage());
            if (bad.isAnswerableRequest()) {
                ctx.writeAndFlush(ResponseCodec.status(ctx.alloc(), bad.requestId(), Status.PAYLOAD_TOO_LARGE,
                        bad.getMessage())).addListener(ChannelFutureListener.CLOSE);
            } else {
                ctx.close();
            }
        } else if (error instanceof IOException) {
            LOG.debug("weft server: connection {} failed", ctx.channel().remoteAddress(), error);
            ctx.close();
        } else {
            server.warnings().warn(PeerWarnings.Kind.CONNECTION_FAILURE, "weft server: closing " + ctx.channel().remoteAddress()
                    + " after " + error);
            ctx.close();
        }
    }

    /** One call on a business thread. */
    final class Call implements Runnable {

        private final Channel channel;
        private final long id;
        private final boolean twoWay;
        private final ExportedService service;
        private final Method method;
        private final Object[] arguments;
        private final Map<String, String> attachments;
        private final long deadlineNanos;
        /** Its place under the method's {@code executes=auto} limit, taken as it was read; ended with the call. */
        private final ExecuteLimits.Admission admission;
        /** Set by whoever takes this call first: a business thread running it, or a CANCEL skipping it. */
        private final AtomicBoolean claimed = new AtomicBoolean();
        /** Cancelled when the consumer cancels the running call or its deadline passes: reaches an async implementation's future. */
        private final Cancellation cancellation = Cancellation.create();

        Call(Channel channel, long id, boolean twoWay, ExportedService service, Method method, Object[] arguments,
             Map<String, String> attachments, long deadlineNanos, ExecuteLimits.Admission admission) {
            this.channel = channel;
            this.id = id;
            this.twoWay = twoWay;
            this.service = service;
            this.method = method;
            this.arguments = arguments;
            this.attachments = attachments;
            this.deadlineNanos = deadlineNanos;
            this.admission = admission;
        }

        boolean claim() {
            return claimed.compareAndSet(false, true);
        }

        boolean isClaimed() {
            return claimed.get();
        }

        ExportedService service() {
            return service;
        }

        /**
         * Answers NOT_PROCESSED a call that will not run (the server stops before a thread took
         * it), unless a thread or a CANCEL took it first.
         */
        void notRun(String reason) {
            if (!takeFromQueue()) {
                return;
            }
            try {
                answerStatus(Status.NOT_PROCESSED, reason);
            } finally {
                done();
            }
        }

        /**
         * The call is over, however it ended: its place under the adaptive limit is released (unless
         * its answer already ended it, with its latency) and the service counts it done.
         */
        void done() {
            admission.notRun();
            service.callDone();
        }

        boolean isExpired(long now) {
            return deadlineNanos != Long.MAX_VALUE && now - deadlineNanos >= 0;
        }

        /** Answers DEADLINE_EXPIRED a call whose deadline passed before it was handed to a thread, unless a CANCEL took it first. */
        void expire() {
            if (!takeFromQueue()) {
                return;
            }
            try {
                service.callExpired();
                answerStatus(Status.DEADLINE_EXPIRED, "the call's deadline passed before it was read or dispatched"
                        + " (its consumer gave up); not run");
            } finally {
                done();
            }
        }

        /** Leaves this connection's queued calls; true when this caller took the call, false when a CANCEL or another caller did. */
        boolean takeFromQueue() {
            if (twoWay) {
                queued.remove(id, this);
            }
            return claim();
        }

        @Override
        public void run() {
            if (!takeFromQueue()) {
                return; // cancelled while queued; already counted as done
            }
            boolean pending = false;
            try {
                if (server.isDraining() || service.isClosing()) {
                    answerStatus(Status.NOT_PROCESSED, "shutting down: " + service.key());
                } else if (isExpired(server.ticker().read())) {
                    service.callExpired();
                    answerStatus(Status.DEADLINE_EXPIRED, "the call's deadline passed while it waited for a thread; not run");
                } else {
                    pending = invoke();
                }
            } finally {
                if (!pending) {
                    done();
                }
            }
        }

        /**
         * Runs the call; true when its answer is pending (an async implementation's future), in which
         * case the answer is written, and the call counted done, when the result ends: no business
         * thread waits for it. A pending call is abandoned (its future cancelled, no answer written)
         * when its consumer cancels it or its deadline passes.
         */
        private boolean invoke() {
            RpcInvocation invocation = new RpcInvocation(method.getName(), method.getParameterTypes(), arguments,
                    method.getReturnType(), method.getGenericReturnType());
            attachments.forEach(invocation::setAttachment);
            invocation.setCallOptions(CallOptions.DEFAULT.withCancellation(cancellation).withAdmittedOnReceipt(admission.isAdmitted()));
            Result result;
            try {
                result = service.invoker().invoke(invocation);
            } catch (RuntimeException | Error e) {
                Results.rethrowIfFatal(e);
                admission.notRun();
                answer(null, e); // refused by a provider filter (or the dispatch failed): a failure, not the service's answer
                return false;
            }
            if (result.isDone()) {
                Throwable failure = Results.failureOf(result);
                admission.ended(failure);
                answer(failure == null ? result : null, failure);
                return false;
            }
            if (twoWay) {
                running.put(id, this);
            }
            Future<?> abandon = deadlineNanos == Long.MAX_VALUE ? null : channel.eventLoop().schedule(cancellation::cancel,
                    deadlineNanos - server.ticker().read(), TimeUnit.NANOSECONDS);
            result.whenComplete((answer, failure) -> {
                if (abandon != null) {
                    abandon.cancel(false);
                }
                try {
                    if (twoWay) {
                        running.remove(id, this);
                    }
                    if (!cancellation.isCancelled()) {
                        admission.ended(failure);
                        answer(answer, failure);
                    }
                } finally {
                    done();
                }
            });
            return true;
        }

        /** Cancels a running async call (its consumer gave up): the implementation's future is cancelled, no answer is written. */
        void cancelRunning() {
            cancellation.cancel();
        }

        /**
         * Writes the answer: the service's value or exception ({@code result}), or for a {@code failure}
         * of the call (a refusal by a provider filter) its status: NOT_PROCESSED for one that says
         * nothing ran, else the failure as an error the consumer re-creates.
         */
        private void answer(Result result, Throwable failure) {
            if (!twoWay) {
                return;
            }
            if (failure instanceof RpcException refused && refused.isNotProcessed()) {
                answerStatus(Status.NOT_PROCESSED, String.valueOf(refused.getMessage()));
                return;
            }
            Result answer = failure != null ? RpcResult.ofException(failure) : result;
            ByteBuf frame = AnswerEncoder.encode(channel.alloc(), service, method, id, answer, server.exceptions(),
                    server.settings().payload(), server.warnings());
            server.answer(channel, id, frame);
        }

        void answerStatus(int status, String reason) {
            if (twoWay) {
                channel.writeAndFlush(ResponseCodec.status(channel.alloc(), id, status, reason), channel.voidPromise());
            }
        }
    }
}
