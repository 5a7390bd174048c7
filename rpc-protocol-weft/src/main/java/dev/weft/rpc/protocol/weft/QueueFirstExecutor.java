package dev.weft.rpc.protocol.weft;

import com.google.common.base.Ticker;
import com.google.common.util.concurrent.Uninterruptibles;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
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
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;

import static com.google.common.base.Preconditions.checkArgument;

/**
 * The provider's business executor: about one awake worker per core, a bounded queue that busy
 * workers drain without being woken, and more workers only when queued tasks stop moving.
 *
 * <p><b>Policy.</b> While fewer than {@code runningTarget} workers are awake, {@link #execute} hands
 * the task to the worker that went idle most recently (its caches are the warmest), or starts one.
 * Otherwise the task joins the queue, and a worker that finishes a task takes the next one from
 * the queue. A worker parks, on a stack of idle workers, only when the queue is empty.
 *
 * <p><b>Why.</b> Waking a parked thread for every call, and running one thread per concurrent
 * call, spends a small provider's time in the kernel (wake-ups, parks, context switches). Under
 * load, workers that stay awake and pull from a queue pass calls on without any of that, and the
 * number of threads stays near the number of cores.
 *
 * <p><b>Growth for services that block.</b> Awake workers blocked in a service (a database call,
 * a sleep) take nothing from the queue. A watchdog thread watches the oldest queued task; once it
 * has waited {@link #STALL_INTERVAL}, the watchdog wakes an idle worker or starts a thread, one per
 * interval the task has waited (at most one per queued task, never more than {@code maxThreads}
 * threads; a worker just started may not have taken its task when the watchdog looks again an
 * interval later, so on a host too busy to start a thread within the interval one spare may start,
 * and goes idle when it finds the queue empty). It needs no new call to do so, and it parks while the queue is empty, so an idle or
 * lightly loaded executor costs it nothing. A worker above the target parks after its task once
 * the queue keeps up again (empty, or its oldest task has waited less than half the interval),
 * so the count falls back to the target when the stall has passed.
 * Measuring how long the oldest task waited, rather than whether any task was taken, also sees a
 * queue that moves too slowly: workers whose calls block for 10 ms still take a task every few
 * milliseconds between them while dozens of calls wait. The price: CPU-bound tasks long enough
 * that the queue holds more than an interval of work also add workers, which share the same cores.
 *
 * <p>A full queue lets one more worker take the task, up to {@code maxThreads}; beyond that
 * {@link #execute} throws {@link RejectedExecutionException} at once, as it does after
 * {@link #shutdownNow()}. A worker idle for {@code keepAlive} ends. A task's runtime exception goes
 * to its thread's uncaught exception handler and the thread carries on; an interrupt a task leaves
 * behind is cleared before the next task.
 *
 * <p>Thread-safe: any thread may call any method.
 */
final class QueueFirstExecutor implements Executor {

    /**
     * How long the oldest queued task may wait before the watchdog adds a worker. Above a
     * scheduler time slice on a busy host, so that workers that are merely waiting for a core do
     * not look blocked; short enough that calls queued behind blocked workers wait little longer
     * than this before more workers start.
     */
    static final Duration STALL_INTERVAL = Duration.ofMillis(5);
    private static final long STALL_NANOS = STALL_INTERVAL.toNanos();

    /** Handed to a worker so that it looks at the queue. */
    private static final Runnable WAKE = () -> { };

    private final int runningTarget;
    private final int maxThreads;
    private final long keepAliveNanos;
    private final Ticker ticker;
    private final ThreadFactory workerThreads;
    private final BlockingQueue<Queued> queue;
    /** Idle workers, the most recently idle first. */
    private final Deque<Worker> idle = new ConcurrentLinkedDeque<>();
    private final AtomicInteger threadCount = new AtomicInteger();
    /**
     * Workers not parked on the idle stack: running a task, taking one from the queue, or about to
     * receive one. Whoever wakes or starts a worker counts it; a worker uncounts itself as it parks.
     */
    private final AtomicInteger awake = new AtomicInteger();
    private final Set<Thread> threads = ConcurrentHashMap.newKeySet();
    private final Thread watchdog;
    /** False while the watchdog parks on an empty queue: the next task queued unparks it. */
    private volatile boolean watching = true;
    private volatile boolean shutdown;

    /** A queued task and when it was queued (a reading of the ticker). */
    private record Queued(Runnable task, long queuedAt) {
    }

    /**
     * @param runningTarget   workers kept awake before tasks queue, usually the number of cores;
     *                        lowered to {@code maxThreads} when above it
     * @param maxThreads      most worker threads alive at once
     * @param queueCapacity   most tasks waiting for a worker
     * @param keepAlive       how long a worker may stay idle before it ends
     * @param ticker          measures how long queued tasks have waited
     * @param workerThreads   makes the worker threads
     * @param watchdogThreads makes the watchdog thread, started here
     */
    QueueFirstExecutor(int runningTarget, int maxThreads, int queueCapacity, Duration keepAlive, Ticker ticker,
                       ThreadFactory workerThreads, ThreadFactory watchdogThreads) {
        checkArgument(runningTarget > 0, "runningTarget: %s (expected: > 0)", runningTarget);
        checkArgument(maxThreads > 0, "maxThreads: %s (expected: > 0)", maxThreads);
        checkArgument(queueCapacity > 0, "queueCapacity: %s (expected: > 0)", queueCapacity);
        checkArgument(Objects.requireNonNull(keepAlive, "keepAlive").compareTo(Duration.ZERO) > 0,
                "keepAlive: %s (expected: > 0)", keepAlive);
        this.runningTarget = Math.min(runningTarget, maxThreads);
        this.maxThreads = maxThreads;
        this.keepAliveNanos = keepAlive.toNanos();
        this.ticker = Objects.requireNonNull(ticker, "ticker");
        this.workerThreads = Objects.requireNonNull(workerThreads, "workerThreads");
        this.queue = new ArrayBlockingQueue<>(queueCapacity);
        this.watchdog = Objects.requireNonNull(watchdogThreads, "watchdogThreads").newThread(this::watch);
        watchdog.start();
    }

    @Override
    public void execute(Runnable task) {
        Objects.requireNonNull(task, "task");
        if (shutdown) {
            throw new RejectedExecutionException("executor: shut down");
        }
        if (wake(task, runningTarget)) {
            return;
        }
        if (!queue.offer(new Queued(task, ticker.read()))) {
            if (wake(task, maxThreads)) {
                return;
            }
            throw new RejectedExecutionException("executor: " + maxThreads + " threads busy and "
                    + queue.size() + " tasks queued");
        }
        // Awake workers may have found the queue empty and parked between the look above and the offer.
        wake(WAKE, runningTarget);
        if (!watching) {
            watching = true;
            LockSupport.unpark(watchdog);
        }
    }

    /**
     * Gives {@code task} to the most recently idle worker, or to a new thread, when fewer than
     * {@code limit} workers are awake; false when it did not.
     */
    private boolean wake(Runnable task, int limit) {
        if (!countAwake(limit)) {
            return false;
        }
        Worker worker = idle.pollFirst();
        if (worker != null) {
            worker.give(task);
            return true;
        }
        boolean started = false;
        try {
            started = startThread(task);
        } finally {
            if (!started) {
                awake.decrementAndGet();
            }
        }
        return started;
    }

    private boolean countAwake(int limit) {
        while (true) {
            int n = awake.get();
            if (n >= limit) {
                return false;
            }
            if (awake.compareAndSet(n, n + 1)) {
                return true;
            }
        }
    }

    private boolean startThread(Runnable task) {
        if (shutdown) {
            return false;
        }
        while (true) {
            int n = threadCount.get();
            if (n >= maxThreads) {
                return false;
            }
            if (threadCount.compareAndSet(n, n + 1)) {
                break;
            }
        }
        Thread thread = null;
        try {
            thread = Objects.requireNonNull(workerThreads.newThread(new Worker(task)), "worker thread");
            threads.add(thread);
            thread.start();
            return true;
        } catch (RuntimeException | Error e) {
            if (thread != null) {
                threads.remove(thread);
            }
            threadCount.decrementAndGet();
            throw e;
        }
    }

    /** Worker threads alive now (busy or idle). */
    int threadCount() {
        return threadCount.get();
    }

    /** Worker threads waiting for a task. */
    int idleThreads() {
        return idle.size();
    }

    /** Tasks waiting for a worker. */
    int queued() {
        return queue.size();
    }

    /** Takes the queued tasks that {@code which} accepts out of the queue, unrun, and returns them in queue order. */
    List<Runnable> removeQueued(Predicate<Runnable> which) {
        List<Runnable> removed = new ArrayList<>();
        queue.removeIf(queued -> which.test(queued.task()) && removed.add(queued.task()));
        return removed;
    }

    /**
     * Rejects new tasks, interrupts running ones, stops idle workers and the watchdog, and returns
     * the queued tasks, which will not run, in queue order: the caller decides what becomes of
     * them. A task a worker already holds (taken from the queue or handed to it) still runs.
     */
    List<Runnable> shutdownNow() {
        shutdown = true;
        List<Queued> notStarted = new ArrayList<>();
        queue.drainTo(notStarted);
        for (Thread thread : threads) {
            thread.interrupt();
        }
        LockSupport.unpark(watchdog);
        return notStarted.stream().map(Queued::task).toList();
    }

    /** Waits up to {@code timeout} for the workers and the watchdog to end; true when they all did. */
    boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        TimeUnit.NANOSECONDS.timedJoin(watchdog, deadline - System.nanoTime());
        // a worker may still be starting (a wake-up that raced shutdownNow), so look until none is left
        for (Iterator<Thread> alive = threads.iterator(); alive.hasNext(); alive = threads.iterator()) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            TimeUnit.NANOSECONDS.timedJoin(alive.next(), left);
        }
        return !watchdog.isAlive();
    }

    /** The watchdog's loop: adds workers while the oldest queued task has waited too long. */
    private void watch() {
        while (!shutdown) {
            Queued oldest = queue.peek();
            if (oldest == null) {
                parkUntilQueued();
                continue;
            }
            long waited = ticker.read() - oldest.queuedAt();
            if (waited < STALL_NANOS) {
                sleep(STALL_NANOS - Math.max(waited, 0));
                continue;
            }
            // The awake workers are blocked, or too few: one more for each interval it waited.
            long wanted = Math.min(waited / STALL_NANOS, queue.size());
            try {
                for (long i = 0; i < wanted && wake(WAKE, maxThreads); i++) {
                    // each turn woke or started one worker
                }
            } catch (RuntimeException | OutOfMemoryError e) {
                // no thread could be started: report it and try again after the interval
                Thread self = Thread.currentThread();
                self.getUncaughtExceptionHandler().uncaughtException(self, e);
            }
            sleep(STALL_NANOS);
        }
    }

    private void parkUntilQueued() {
        watching = false;
        if (!queue.isEmpty()) {
            // queued between the look and the flag: that execute saw the flag still set
            watching = true;
            return;
        }
        while (!watching && !shutdown) {
            LockSupport.park(this);
            Thread.interrupted(); // only the flags stop the watchdog; an interrupt would make park spin
        }
    }

    private void sleep(long nanos) {
        long deadline = System.nanoTime() + nanos;
        for (long left = nanos; left > 0 && !shutdown; left = deadline - System.nanoTime()) {
            LockSupport.parkNanos(this, left);
        }
    }

    /** One thread: runs its task, then queued tasks, then waits on the idle stack for the next. */
    private final class Worker implements Runnable {

        /** Written only by whoever popped this worker off the idle stack, so it never holds two. */
        private final BlockingQueue<Runnable> slot = new ArrayBlockingQueue<>(1);
        private Runnable first;
        /** Whether {@link #awake} counts this worker; read and written by its own thread only. */
        private boolean counted = true;

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
                while (task != null) {
                    if (task != WAKE) {
                        runTask(task);
                    }
                    if (shutdown) {
                        return;
                    }
                    if (retire()) {
                        task = awaitHandOff();
                    } else {
                        Queued queued = queue.poll();
                        task = queued != null ? queued.task() : awaitTask();
                    }
                }
            } finally {
                threads.remove(Thread.currentThread());
                threadCount.decrementAndGet();
                if (counted) {
                    awake.decrementAndGet();
                }
                if (!shutdown && !queue.isEmpty()) {
                    // an execute() queued while this thread was leaving and counted as alive
                    wake(WAKE, runningTarget);
                }
            }
        }

        /**
         * Whether this worker, one above the target, goes idle although tasks are queued: the
         * queue is keeping up (its oldest task has waited less than half the stall interval), so
         * the workers the watchdog added for a stall, or for a starved process, are not needed now.
         * At least the target stay awake to drain the queue.
         */
        private boolean retire() {
            if (awake.get() <= runningTarget) {
                return false;
            }
            Queued oldest = queue.peek();
            if (oldest != null && ticker.read() - oldest.queuedAt() >= STALL_NANOS / 2) {
                return false;
            }
            while (true) {
                int n = awake.get();
                if (n <= runningTarget) {
                    return false;
                }
                if (awake.compareAndSet(n, n - 1)) {
                    counted = false;
                    idle.addFirst(this);
                    return true;
                }
            }
        }

        /** The next task, or null when this thread should end (idle for keepAlive, or shut down). */
        private Runnable awaitTask() {
            // On the stack before uncounting: whoever then finds fewer workers awake finds this one
            // idle, rather than starting a thread for the task.
            idle.addFirst(this);
            counted = false;
            awake.decrementAndGet();
            // An execute() may have queued a task after our look, while it still counted us awake.
            Queued queued = queue.poll();
            if (queued != null) {
                if (idle.removeFirstOccurrence(this)) {
                    awake.incrementAndGet();
                    counted = true;
                    return queued.task();
                }
                // Popped meanwhile, and counted awake by whoever popped us: its task is on the way.
                counted = true;
                runTask(queued.task());
                return takeHandedOff();
            }
            return awaitHandOff();
        }

        /** Waits, on the idle stack, for a task handed to this worker; null when it should end. */
        private Runnable awaitHandOff() {
            Runnable task;
            try {
                task = shutdown ? null : slot.poll(keepAliveNanos, TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                task = null; // shutdownNow: leave unless popped
            }
            if (task != null) {
                counted = true;
                return task;
            }
            if (idle.removeFirstOccurrence(this)) {
                return null;
            }
            counted = true;
            return takeHandedOff();
        }

        /** The task of whoever popped this worker off the idle stack: it is about to arrive. */
        private Runnable takeHandedOff() {
            Runnable task = Uninterruptibles.takeUninterruptibly(slot);
            Thread.interrupted(); // only shutdownNow interrupts an idle worker, and the loop sees the flag
            return task;
        }
    }

    /**
     * Runs a task; its runtime exception goes to the thread's handler and the thread carries on. An
     * interrupt the task leaves behind is cleared: it was meant for that task, not for the next one.
     */
    private static void runTask(Runnable task) {
        try {
            task.run();
        } catch (RuntimeException e) {
            Thread thread = Thread.currentThread();
            thread.getUncaughtExceptionHandler().uncaughtException(thread, e);
        } finally {
            Thread.interrupted();
        }
    }
}
