package dev.weft.rpc.it.zk;

/** The service the cross-process and ZooKeeper tests export: each answer names the provider that ran it. */
public interface GreetingService {

    String sayHello(String name);

    String sayBye(String name);
}
