package dev.weft.rpc.cluster;

import dev.weft.rpc.testing.FakeProvider;
import dev.weft.rpc.common.URL;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.RpcInvocation;
import org.junit.jupiter.api.Test;

import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;

import static dev.weft.rpc.cluster.TestClusters.consumer;
import static dev.weft.rpc.cluster.TestClusters.directory;
import static dev.weft.rpc.cluster.TestClusters.hello;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DirectoryTest {

    private final FakeProvider<Greeting> a = FakeProvider.of(Greeting.class, "10.0.0.1");
    private final FakeProvider<Greeting> b = FakeProvider.of(Greeting.class, "10.0.0.2");
    private final FakeProvider<Greeting> c = FakeProvider.of(Greeting.class, "10.0.0.3");
    private final FakeProvider<Greeting> mock = FakeProvider.at(Greeting.class, URL.valueOf("mock://10.0.0.9/" + Greeting.class.getName()));

    @Test
    void staticDirectory_takesInterfaceFromFirstInvoker_andListsAll() {
        StaticDirectory<Greeting> directory = new StaticDirectory<>(consumer(""), List.<Invoker<Greeting>>of(a, b));

        assertThat(directory.getInterface()).isEqualTo(Greeting.class);
        assertThat(directory.getUrl()).isEqualTo(consumer(""));
        assertThat(directory.list(hello())).containsExactly(a, b);
        assertThat(directory.isAvailable()).isTrue();
    }

    @Test
    void staticDirectory_rejectsEmptyListWithoutInterface_namingTheAlternative() {
        assertThatThrownBy(() -> new StaticDirectory<Greeting>(consumer(""), List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("invokers: [] (expected: at least one invoker to take the interface from;"
                        + " use StaticDirectory(Class, URL, List) for an empty directory)");
        assertThat(new StaticDirectory<>(Greeting.class, consumer(""), List.of()).list(hello())).isEmpty();
    }

    @Test
    @SuppressWarnings({"unchecked", "rawtypes"})
    void setInvokers_rejectsInvokerOfAnotherInterface_andNullElements() {
        DynamicDirectory<Runnable> directory = new DynamicDirectory<>(Runnable.class, consumer(""));
        List raw = List.of(a);
        assertThatThrownBy(() -> directory.setInvokers(raw))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("invokers[0]: weft://10.0.0.1:20880/dev.weft.rpc.cluster.Greeting serves dev.weft.rpc.cluster.Greeting"
                        + " (expected: an Invoker of java.lang.Runnable)");
        List<Invoker<Greeting>> withNull = new ArrayList<>();
        withNull.add(a);
        withNull.add(null);
        assertThatThrownBy(() -> new DynamicDirectory<>(Greeting.class, consumer("")).setInvokers(withNull))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("invokers[1]: null (expected: an Invoker of dev.weft.rpc.cluster.Greeting)");
    }

    @Test
    void list_returnsSameInstance_whileMembershipAndAvailabilityAreUnchanged() {
        DynamicDirectory<Greeting> directory = directory("", a, b, c);

        List<Invoker<Greeting>> first = directory.list(hello());
        assertThat(directory.list(hello())).isSameAs(first);

        directory.setInvokers(List.of(a, b, c));
        assertThat(directory.list(hello())).as("same members in the same order keep the snapshot").isSameAs(first);

        directory.setInvokers(List.of(a, c));
        List<Invoker<Greeting>> changed = directory.list(hello());
        assertThat(changed).containsExactly(a, c).isNotSameAs(first);
        assertThat(directory.list(hello())).isSameAs(changed);
    }

    @Test
    void list_skipsUnavailable_reusingTheFilteredInstance_untilAvailabilityChanges() {
        DynamicDirectory<Greeting> directory = directory("", a, b, c);
        List<Invoker<Greeting>> all = directory.list(hello());

        b.available(false);
        List<Invoker<Greeting>> withoutB = directory.list(hello());
        assertThat(withoutB).containsExactly(a, c);
        assertThat(directory.list(hello())).isSameAs(withoutB);

        b.available(true);
        assertThat(directory.list(hello())).isSameAs(all);

        a.available(false);
        b.available(false);
        c.available(false);
        assertThat(directory.list(hello())).isEmpty();
        assertThat(directory.isAvailable()).isFalse();
    }

    @Test
    void stateCandidates_areWhatTheLastListFoundAvailable_andShareItsInstances() {
        DynamicDirectory<Greeting> directory = directory("", a, b, c);
        List<Invoker<Greeting>> all = directory.list(hello());
        assertThat(directory.state().candidates()).isSameAs(all);

        b.available(false);
        assertThat(directory.state().candidates()).as("not checked since the last list: still offered").isSameAs(all);
        List<Invoker<Greeting>> withoutB = directory.list(hello());
        assertThat(withoutB).containsExactly(a, c);
        assertThat(directory.state().candidates()).as("found down by list: no longer offered").isSameAs(withoutB);
        assertThat(directory.state().down()).containsExactly(b);

        b.available(true);
        assertThat(directory.list(hello())).as("found back by the next list").isSameAs(all);
        assertThat(directory.state().candidates()).isSameAs(all);
    }

    @Test
    void aCall_checksOnlyThePickedMember_whilePublishingAStateChecksEveryone() {
        CountingAvailability counting = new CountingAvailability();
        DynamicDirectory<Greeting> directory = directory("", counting.track(a), counting.track(b));
        assertThat(counting.checks).as("publishing a state checks every member").isEqualTo(2);
        Invoker<Greeting> invoker = TestClusters.first(new FailoverCluster()).join(directory);
        for (int i = 0; i < 10; i++) {
            invoker.invoke(hello());
        }
        assertThat(counting.checks).as("each call checks the provider it picked, nobody else").isEqualTo(2 + 10);
        directory.list(hello());
        assertThat(counting.checks).as("list checks everyone").isEqualTo(2 + 10 + 2);
    }

    @Test
    void stateCandidates_keepUnavailable_whenAvailableCheckIsOff_andListRefusesOnceDestroyed() {
        DynamicDirectory<Greeting> directory = directory("cluster.availablecheck=false", a, b);
        b.available(false);
        assertThat(directory.state().candidates()).containsExactly(a, b);
        directory.destroy();
        assertThatThrownBy(() -> directory.list(hello())).isInstanceOf(RpcException.class).hasMessageContaining("destroyed");
    }

    @Test
    void list_keepsUnavailable_whenAvailableCheckIsOff() {
        DynamicDirectory<Greeting> directory = directory("cluster.availablecheck=false", a, b);
        b.available(false);

        assertThat(directory.list(hello())).containsExactly(a, b);
    }

    @Test
    void list_hidesMockInvokersFromNormalCalls_andShowsOnlyThemToNeedMockCalls() {
        DynamicDirectory<Greeting> directory = directory("", a, mock, b);
        RpcInvocation needMock = hello().setAttachment(AbstractDirectory.NEED_MOCK_ATTACHMENT, "true");

        assertThat(directory.list(hello())).containsExactly(a, b);
        assertThat(directory.list(needMock)).containsExactly(mock);
        assertThat(directory.list(needMock)).isSameAs(directory.list(needMock));
        assertThat(directory("", a, b).list(needMock)).isEmpty();
        assertThat(directory.getAllInvokers()).containsExactly(a, mock, b);
    }

    @Test
    void setUrl_changesTheKeysReadFromTheNextCall() {
        DynamicDirectory<Greeting> directory = directory("", a, b);
        b.available(false);
        assertThat(directory.list(hello())).containsExactly(a);

        directory.setUrl(consumer("cluster.availablecheck=false"));

        assertThat(directory.getUrl().getParameter("cluster.availablecheck")).isEqualTo("false");
        assertThat(directory.list(hello())).containsExactly(a, b);
    }

    @Test
    void addListener_checksTheCurrentState_andAVetoedListenerIsNotRegistered() {
        DynamicDirectory<Greeting> directory = directory("", a, b);
        List<Integer> checkedSizes = new ArrayList<>();
        DirectoryListener<Greeting> vetoTwo = next -> {
            checkedSizes.add(next.allInvokers().size());
            if (next.allInvokers().size() == 2) {
                throw new IllegalArgumentException("two members vetoed");
            }
        };

        assertThatThrownBy(() -> directory.addListener(vetoTwo))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("two members vetoed");
        directory.setInvokers(List.of(c));

        assertThat(checkedSizes).containsExactly(2);
        assertThat(directory.getAllInvokers()).containsExactly(c);
    }

    @Test
    void addListener_refusingTheCurrentState_isRegistered_whenTheDirectoryPublishesOneItAccepts() {
        List<String> checked = new ArrayList<>();
        DirectoryListener<Greeting> noRetries = next -> {
            checked.add(next.url().getParameter("retries", "-"));
            if (next.url().hasParameter("retries")) {
                throw new IllegalArgumentException("retries: " + next.url().getParameter("retries"));
            }
        };
        RevisingDirectory revising = new RevisingDirectory(consumer("retries=many"));

        revising.addListener(noRetries);
        assertThat(revising.getUrl().hasParameter("retries")).isFalse();
        assertThatThrownBy(() -> revising.revise(consumer("retries=7"))).hasMessage("retries: 7");
        assertThat(checked).as("the refused state, the revision, the revision again when registering, the next")
                .containsExactly("many", "-", "-", "7");

        RevisingDirectory failing = new RevisingDirectory(consumer("retries=many"));
        failing.fallback = consumer("retries=2");
        assertThatThrownBy(() -> failing.addListener(noRetries)).hasMessage("retries: many");
        failing.revise(consumer("timeout=5"));
        assertThat(failing.getUrl().getParameter("timeout")).as("the refusing listener was not registered").isEqualTo("5");
    }

    /** Publishes {@code fallback} when a joining listener refuses its state. */
    private static final class RevisingDirectory extends AbstractDirectory<Greeting> {
        URL fallback = consumer("");

        RevisingDirectory(URL consumerUrl) {
            super(Greeting.class, consumerUrl);
            publish(consumerUrl, List.of());
        }

        void revise(URL url) {
            publish(url, null);
        }

        @Override
        protected boolean onListenerRefusal(DirectoryListener<Greeting> joining) {
            try {
                publish(fallback, null, joining);
            } catch (IllegalArgumentException e) {
                // the current state stays; addListener checks it again and fails
            }
            return true;
        }
    }

    @Test
    void destroy_refusesListing_butDestroysNoInvoker() {
        DynamicDirectory<Greeting> directory = directory("", a, b);

        directory.destroy();
        directory.setInvokers(List.of(c));

        assertThat(directory.isAvailable()).isFalse();
        assertThat(directory.getAllInvokers()).isEmpty();
        assertThat(a.isDestroyed() || b.isDestroyed() || c.isDestroyed()).isFalse();
        assertThatThrownBy(() -> directory.list(hello()))
                .isInstanceOf(RpcException.class)
                .hasMessage("Directory of service dev.weft.rpc.cluster.Greeting is destroyed; cannot list providers for method hello"
                        + " (consumer: consumer://10.0.0.100/dev.weft.rpc.cluster.Greeting)");
    }

    @Test
    void removedInvoker_isReclaimable_afterCallsThroughTheCluster() throws InterruptedException {
        FakeProvider<Greeting> leaving = FakeProvider.of(Greeting.class, "10.0.0.7").available(false);
        DynamicDirectory<Greeting> directory = directory("", leaving, a);
        Invoker<Greeting> invoker = TestClusters.first(new FailoverCluster()).join(directory);
        leaving.available(true);
        invoker.invoke(hello());
        assertThat(leaving.calls()).isEqualTo(1);
        WeakReference<FakeProvider<Greeting>> ref = new WeakReference<>(leaving);

        directory.setInvokers(List.of(a));
        invoker.invoke(hello());
        leaving = null;

        for (int i = 0; i < 50 && ref.get() != null; i++) {
            System.gc();
            Thread.sleep(10);
        }
        assertThat(ref.get()).as("neither the directory, its availability cache nor the statistics keep it").isNull();
    }

    @Test
    void removedInvoker_isReclaimable_evenAfterManyCallsIndexedItsList() throws InterruptedException {
        FakeProvider<Greeting> leaving = FakeProvider.of(Greeting.class, "10.0.0.8");
        DynamicDirectory<Greeting> directory = directory("", leaving, a);
        Invoker<Greeting> invoker = TestClusters.first(new FailoverCluster()).join(directory);
        for (int i = 0; i < 10; i++) {
            invoker.invoke(hello());
        }
        assertThat(leaving.calls()).isEqualTo(10);
        WeakReference<FakeProvider<Greeting>> ref = new WeakReference<>(leaving);

        directory.setInvokers(List.of(a));
        for (int i = 0; i < 10; i++) {
            invoker.invoke(hello());
        }
        leaving = null;

        for (int i = 0; i < 50 && ref.get() != null; i++) {
            System.gc();
            Thread.sleep(10);
        }
        assertThat(ref.get()).as("the cluster's statistics table refers to invokers weakly").isNull();
    }

    @Test
    void badAvailableCheckValue_isRejectedWithTheKey() {
        assertThatThrownBy(() -> directory("cluster.availablecheck=maybe", a))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cluster.availablecheck");
    }

    /** Counts {@code isAvailable()} calls on the invokers it tracks. */
    private static final class CountingAvailability {
        int checks;

        FakeProvider<Greeting> track(FakeProvider<Greeting> invoker) {
            invoker.onAvailabilityCheck(() -> checks++);
            return invoker;
        }
    }
}
