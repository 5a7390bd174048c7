package dev.weft.rpc.registry;

public interface DemoService {
    String sayHello(String name);

    String sayBye(String name);
}
