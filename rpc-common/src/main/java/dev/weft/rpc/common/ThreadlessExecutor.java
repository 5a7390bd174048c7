package dev.weft.rpc.common;

import java.util.ArrayDeque;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.locks.LockSupport;

/**
 * The executor of one synchronous call, whose tasks run on the thread waiting for the call: a sync
 * proxy call passes it in its {@link CallOptions#executor()}, the protocol hands it the work of
 * completing the call (decoding the answer), and the caller's thread, waiting in {@link #await},
 * runs that work itself. The answer crosses from the network thread to the caller's thread in one
 * hop, with no pool thread in between.
 *
 * <p>Once the waiting thread has stopped waiting, tasks still arriving (a late attempt of a call
 * that already ended, which only finishes that attempt's bookkeeping) run on the fallback executor
 * given at construction ({@code Runnable::run}: on the thread that submits them).
 *
 * <p>Thread-safe: any thread may submit; only the creating thread calls {@link #await}, once.
 */
public final class ThreadlessExecutor implements Executor {

    private final Thread waiter = Thread.currentThread();
    private final Executor fallback;
    private ArrayDeque<Runnable> tasks; // guarded by this; created on the first task
    private boolean finished; // guarded by this

    /** An executor for a call made on the current thread; late tasks go to {@code fallback}. */
    public ThreadlessExecutor(Executor fallback) {
        this.fallback = Objects.requireNonNull(fallback, "fallback");
    }

    @Override
    public void execute(Runnable task) {
        Objects.requireNonNull(task, "task");
        boolean queued;
        synchronized (this) {
            queued = !finished;
            if (queued) {
                if (tasks == null) {
                    tasks = new ArrayDeque<>(4);
                }
                tasks.add(task);
            }
        }
        if (queued) {
            // Outside the lock: a waiter woken while it is held would block on it at once.
            LockSupport.unpark(waiter);
        } else {
            fallback.execute(task);
        }
    }

    /**
     * Runs this executor's tasks on the calling thread until {@code result} is done. An interrupt
     * cancels the call through {@code cancellation} (whose attempts then end promptly) and is
     * restored before returning. Nothing here has a deadline of its own: every pending call ends by
     * the deadline its protocol arms for each attempt, or by its cancellation.
     *
     * @throws IllegalStateException when called by another thread than the one that created it
     */
    public void await(Result result, Cancellation cancellation) {
        if (Thread.currentThread() != waiter) {
            throw new IllegalStateException("ThreadlessExecutor.await on " + Thread.currentThread().getName()
                    + " (expected: the thread that made the call, " + waiter.getName() + ")");
        }
        boolean interrupted = false;
        try {
            if (!result.isDone()) {
                result.completion().whenComplete((value, failure) -> LockSupport.unpark(waiter));
            }
            while (true) {
                Runnable task = poll();
                if (task != null) {
                    runSafely(task);
                } else if (result.isDone()) {
                    break;
                } else {
                    LockSupport.park(this);
                    if (Thread.interrupted()) {
                        interrupted = true;
                        cancellation.cancel();
                    }
                }
            }
        } finally {
            finish();
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private synchronized Runnable poll() {
        return tasks == null ? null : tasks.poll();
    }

    /** Stops taking tasks: what is still queued runs here, later tasks go to the fallback. */
    private void finish() {
        while (true) {
            Runnable task;
            synchronized (this) {
                task = tasks == null ? null : tasks.poll();
                if (task == null) {
                    finished = true;
                    return;
                }
            }
            runSafely(task);
        }
    }

    private static void runSafely(Runnable task) {
        try {
            task.run();
        } catch (RuntimeException | Error e) {
            Results.rethrowIfFatal(e);
            // a task completes a call; one that throws must not stop this thread from waiting for its own
            Thread current = Thread.currentThread();
            current.getUncaughtExceptionHandler().uncaughtException(current, e);
        }
    }

    @Override
    public String toString() {
        return "ThreadlessExecutor[" + waiter.getName() + "]";
    }
}
