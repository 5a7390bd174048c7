package dev.weft.rpc.admin;

/** The service the admin tests route and override. */
public interface Greeter {
    String greet(String who);

    String bye(String who);
}
