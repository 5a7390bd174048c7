package dev.weft.rpc.spring.boot;

import org.springframework.beans.factory.DisposableBean;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;

/** The beans the starter's tests put in their contexts. */
final class Services {

    private Services() {
    }

    @WeftService
    static class PlainGreeter implements Greeter {
        @Override
        public String greet(String name) {
            return "hello " + name;
        }
    }

    @WeftService(parameters = "weight=${greeter.weight}")
    static class WeightedGreeter extends PlainGreeter {
    }

    /** Answers "slow" after a pause, counting the calls that started. */
    @WeftService
    static class SlowGreeter implements Greeter {
        static final long PAUSE_MILLIS = 600;
        final CountDownLatch started = new CountDownLatch(1);

        @Override
        public String greet(String name) {
            started.countDown();
            try {
                Thread.sleep(PAUSE_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return "interrupted";
            }
            return "slow " + name;
        }
    }

    /** Holds every call until its thread is interrupted (the server's close) or 30 s pass, counting the calls that started. */
    static class HeldGreeter implements Greeter {
        final CountDownLatch started = new CountDownLatch(1);

        @Override
        public String greet(String name) {
            started.countDown();
            try {
                Thread.sleep(30_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return "interrupted";
            }
            return "held " + name;
        }
    }

    @WeftService(parameters = "group=a")
    static class HeldGreeterA extends HeldGreeter {
    }

    @WeftService(parameters = "group=b")
    static class HeldGreeterB extends HeldGreeter {
    }

    @WeftService(parameters = "group=c")
    static class HeldGreeterC extends HeldGreeter {
    }

    /** One reference per group of the held greeters. */
    static class GroupCallers {
        @WeftReference(parameters = "group=a")
        Greeter a;
        @WeftReference(parameters = "group=b")
        Greeter b;
        @WeftReference(parameters = "group=c")
        Greeter c;
    }

    static class Caller {
        @WeftReference
        Greeter greeter;
    }

    static class SecondCaller {
        @WeftReference
        Greeter greeter;
    }

    /** Calls its reference while it is destroyed. */
    static class CallerAtShutdown implements DisposableBean {
        final List<String> answers = new CopyOnWriteArrayList<>();

        @WeftReference(parameters = "timeout=2000")
        Greeter greeter;

        @Override
        public void destroy() {
            answers.add(greeter.greet("bye"));
        }
    }
}
