package dev.weft.rpc.protocol.weft;

import com.google.common.util.concurrent.Uninterruptibles;

import java.util.Deque;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static com.google.common.base.Preconditions.checkArgument;

/**
 * A bounded executor that hands each task to the thread that went idle most recently, queues a
 * bounded number of tasks when every thread is busy, and rejects the rest at once.
 *
 * <p>Why not {@link java.util.concurrent.ThreadPoolExecutor}: over a queue it wakes the thread that
 * has waited longest, so a trickle of calls rotates over every thread with cold caches (and
 * creates all core threads first); over an unfair {@link java.util.concurrent.SynchronousQueue} it
 * reuses the last thread but can queue nothing. Here idle threads wait on a stack; a new thread
 * starts only when none is idle, up to {@code maxThreads}; an idle thread ends after
 * {@code keepAlive}.
 *
 * <p>Thread-safe. {@link #execute} throws {@link RejectedExecutionException} when the threads and
 * the queue are full, or after {@link #shutdownNow()}.
 */
final class LifoHandoffExecutor implements Executor {

    /** Handed to an idle worker so that it looks at the queue again. */
    private static final Runnable WAKE = () -> { };

    private final int maxThreads;
    private final long keepAliveNanos;
    private final ThreadFactory threadFactory;
    private final BlockingQueue<Runnable> queue;
    /** Idle workers, the most recently idle first. */
    private final Deque<Worker> idle = new ConcurrentLinkedDeque<>();
    private final AtomicInteger threadCount = new AtomicInteger();
    private final Set<Thread> threads = ConcurrentHashMap.newKeySet();
    private volatile boolean shutdown;

    LifoHandoffExecutor(int maxThreads, int queueCapacity, long keepAlive, TimeUnit unit, ThreadFactory threadFactory) {
        checkArgument(maxThreads > 0, "maxThreads: %s (expected: > 0)", maxThreads);
        checkArgument(queueCapacity > 0, "queueCapacity: %s (expected: > 0)", queueCapacity);
        checkArgument(keepAlive > 0, "keepAlive: %s (expected: > 0)", keepAlive);
        this.maxThreads = maxThreads;
        this.keepAliveNanos = unit.toNanos(keepAlive);
        this.threadFactory = Objects.requireNonNull(threadFactory, "threadFactory");
        this.queue = new ArrayBlockingQueue<>(queueCapacity);
    }

    @Override
    public void execute(Runnable task) {
        Objects.requireNonNull(task, "task");
        if (shutdown) {
            throw new RejectedExecutionException("executor: shut down");
        }
        if (handOff(task) || startThread(task)) {
            return;
        }
        if (!queue.offer(task)) {
            throw new RejectedExecutionException("executor: " + maxThreads + " threads busy and "
                    + queue.size() + " tasks queued");
        }
        // A worker may have gone idle between the look above and the offer: wake it for the queue.
        handOff(WAKE);
    }

    private boolean handOff(Runnable task) {
        Worker worker = idle.pollFirst();
        if (worker == null) {
            return false;
        }
        worker.give(task);
        return true;
    }

    private boolean startThread(Runnable task) {
        while (true) {
            int n = threadCount.get();
            if (n >= maxThreads) {
                return false;
            }
            if (threadCount.compareAndSet(n, n + 1)) {
                break;
            }
        }
        Worker worker = new Worker(task);
        Thread thread;
        try {
            thread = threadFactory.newThread(worker);
        } catch (RuntimeException | Error e) {
            threadCount.decrementAndGet();
            throw e;
        }
        threads.add(thread);
        thread.start();
        return true;
    }

    /** Threads alive now (busy or idle). */
    int threadCount() {
        return threadCount.get();
    }

    /** Threads waiting for a task. */
    int idleThreads() {
        return idle.size();
    }

    /** Tasks waiting for a thread. */
    int queued() {
        return queue.size();
    }

    /** Rejects new tasks, drops queued ones, interrupts running ones and stops idle threads. */
    void shutdownNow() {
        shutdown = true;
        queue.clear();
        for (Thread thread : threads) {
            thread.interrupt();
        }
    }

    /** Waits up to {@code timeout} for every thread to end; true when they all did. */
    boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        for (Thread thread : threads) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return threads.isEmpty();
            }
            TimeUnit.NANOSECONDS.timedJoin(thread, left);
        }
        return threads.isEmpty();
    }

    /** One thread: runs its task, then queued tasks, then waits on the idle stack for the next. */
    private final class Worker implements Runnable {

        /** Written only by whoever popped this worker off the idle stack, so it never holds two. */
        private final BlockingQueue<Runnable> slot = new ArrayBlockingQueue<>(1);
        private Runnable first;

        Worker(Runnable first) {
            this.first = first;
        }

        void give(Runnable task) {
            if (!slot.offer(task)) {
                throw new IllegalStateException("worker slot: full (expected: empty for a worker popped off the idle stack)");
            }
        }

        @Override
        public void run() {
            try {
                Runnable task = first;
                first = null;
                while (!shutdown) {
                    if (task != null && task != WAKE) {
                        runTask(task);
                    }
                    task = queue.poll();
                    if (task == null) {
                        task = awaitTask();
                        if (task == null) {
                            return;
                        }
                    }
                }
            } finally {
                threads.remove(Thread.currentThread());
                threadCount.decrementAndGet();
                if (!shutdown && !queue.isEmpty()) {
                    // an execute() queued while this thread was leaving and counted as alive
                    startThread(WAKE);
                }
            }
        }

        /** The next task, or null when this thread should end (kept alive long enough, or shut down). */
        private Runnable awaitTask() {
            idle.addFirst(this);
            // An execute() may have queued a task after our look and before we were on the stack.
            Runnable queued = queue.poll();
            if (queued != null) {
                if (idle.removeFirstOccurrence(this)) {
                    return queued;
                }
                // Popped meanwhile: a task is on its way to the slot too; run the queued one first.
                runTask(queued);
                return takeHandedOff();
            }
            Runnable task;
            try {
                task = shutdown ? null : slot.poll(keepAliveNanos, TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                task = null; // shutdownNow, or an interrupt a task left behind: leave unless popped
            }
            if (task != null) {
                return task;
            }
            if (idle.removeFirstOccurrence(this)) {
                return null;
            }
            return takeHandedOff();
        }

        /** The task of whoever popped this worker off the idle stack: it is about to arrive. */
        private Runnable takeHandedOff() {
            Runnable task = Uninterruptibles.takeUninterruptibly(slot);
            if (shutdown) {
                return null;
            }
            Thread.interrupted(); // an interrupt left by the previous task is not for the next one
            return task;
        }
    }

    /** Runs a task; its runtime exception goes to the thread's handler and the thread carries on. */
    private static void runTask(Runnable task) {
        try {
            task.run();
        } catch (RuntimeException e) {
            Thread thread = Thread.currentThread();
            thread.getUncaughtExceptionHandler().uncaughtException(thread, e);
        }
    }
}
