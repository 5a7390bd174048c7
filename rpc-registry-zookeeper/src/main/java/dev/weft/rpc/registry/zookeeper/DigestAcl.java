package dev.weft.rpc.registry.zookeeper;

import dev.weft.rpc.common.URL;
import org.apache.curator.framework.api.ACLProvider;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collections;
import java.util.List;

/**
 * The digest identity of a registry URL ({@code zookeeper://user:password@host:port}) and the ACL
 * of the nodes it creates: anyone may read, only that identity may write, create, delete or
 * change the ACL. Immutable and thread-safe; {@link #toString()} never shows the password.
 */
final class DigestAcl implements ACLProvider {

    static final String SCHEME = "digest";

    private final String user;
    private final byte[] credentials;
    private final List<ACL> acl;

    private DigestAcl(String user, String password) {
        this.user = user;
        String idAndPassword = user + ":" + password;
        this.credentials = idAndPassword.getBytes(StandardCharsets.UTF_8);
        // Not List.of: ZooKeeper asks the list whether it contains null, which List.of rejects.
        this.acl = Collections.unmodifiableList(Arrays.asList(
                new ACL(ZooDefs.Perms.READ, new Id("world", "anyone")),
                new ACL(ZooDefs.Perms.ALL, new Id(SCHEME, digestId(user, credentials)))));
    }

    /**
     * The id ZooKeeper's digest scheme gives {@code user}: {@code user:base64(sha1(user:password))}
     * (what {@code DigestAuthenticationProvider.generateDigest} computes, for {@code setAcl}).
     */
    static String digestId(String user, byte[] userAndPassword) {
        try {
            byte[] sha1 = MessageDigest.getInstance("SHA-1").digest(userAndPassword);
            return user + ":" + Base64.getEncoder().encodeToString(sha1);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is not available for ZooKeeper digest authentication", e);
        }
    }

    /** The identity named by {@code registryUrl}, or {@code null} when it has no user. */
    static DigestAcl of(URL registryUrl) {
        String user = registryUrl.getUsername();
        if (user == null || user.isEmpty()) {
            return null;
        }
        String password = registryUrl.getPassword();
        if (password == null || password.isEmpty()) {
            throw new IllegalArgumentException("registry password: (none) (expected: zookeeper://user:password@host:port"
                    + " for digest authentication) in " + registryUrl);
        }
        return new DigestAcl(user, password);
    }

    /** {@code user:password} bytes for {@code addauth digest}. */
    byte[] credentials() {
        return credentials.clone();
    }

    String user() {
        return user;
    }

    @Override
    public List<ACL> getDefaultAcl() {
        return acl;
    }

    @Override
    public List<ACL> getAclForPath(String path) {
        return acl;
    }

    @Override
    public String toString() {
        return "digest:" + user + ":***";
    }
}
