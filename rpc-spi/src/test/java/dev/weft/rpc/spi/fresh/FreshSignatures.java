package dev.weft.rpc.spi.fresh;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.spi.SPI;
import dev.weft.rpc.spi.fixtures.Signatures;

import java.util.List;

/**
 * An extension point that tests load through a fresh class loader each time, so that its adaptive
 * class is generated anew by each test (generated classes are cached per extension point class).
 * {@code one} answers with the arguments as given, {@code two} with them negated or tagged.
 */
@SPI("one")
public interface FreshSignatures extends Signatures {

    /** The default extension: echoes its arguments. */
    class One implements FreshSignatures {
        @Override
        public long longs(URL url, long a, long b) {
            return a * 100 + b;
        }

        @Override
        public double doubles(double a, URL url, double b) {
            return a * 100 + b;
        }

        @Override
        public float floats(float a, URL url) {
            return a * 10;
        }

        @Override
        public int ints(int a, URL url, short s, byte b, char c, boolean z) {
            return a * 10000 + s * 1000 + b * 100 + (c - 'a') * 10 + (z ? 1 : 0);
        }

        @Override
        public boolean flag(URL url, boolean z) {
            return z;
        }

        @Override
        public String mixed(long a, URL url, double b, int c, float d, String e) {
            return "one " + a + " " + url.getHost() + " " + b + " " + c + " " + d + " " + e;
        }

        @Override
        public void run(URL url, List<String> sink) {
            sink.add("one");
        }

        @Override
        public String viaInterface(UrlCarrier carrier, String text) {
            return "one " + text;
        }

        @Override
        public String viaClass(UrlHolder holder) {
            return "one";
        }

        @Override
        public String twoUrls(URL first, URL second) {
            return "one";
        }

        @Override
        public String twoCarriers(UrlCarrier first, UrlCarrier second) {
            return "one";
        }

        @Override
        public String perMethod(URL url, Invocation first, Invocation second) {
            return "one " + first.getMethodName();
        }

        @Override
        public String notAdaptive(URL url) {
            return "one";
        }
    }

    /** The other extension: negates or tags what {@link One} returns. */
    class Two implements FreshSignatures {
        private final One one = new One();

        @Override
        public long longs(URL url, long a, long b) {
            return -one.longs(url, a, b);
        }

        @Override
        public double doubles(double a, URL url, double b) {
            return -one.doubles(a, url, b);
        }

        @Override
        public float floats(float a, URL url) {
            return -one.floats(a, url);
        }

        @Override
        public int ints(int a, URL url, short s, byte b, char c, boolean z) {
            return -one.ints(a, url, s, b, c, z);
        }

        @Override
        public boolean flag(URL url, boolean z) {
            return !z;
        }

        @Override
        public String mixed(long a, URL url, double b, int c, float d, String e) {
            return "two" + one.mixed(a, url, b, c, d, e).substring(3);
        }

        @Override
        public void run(URL url, List<String> sink) {
            sink.add("two");
        }

        @Override
        public String viaInterface(UrlCarrier carrier, String text) {
            return "two " + text;
        }

        @Override
        public String viaClass(UrlHolder holder) {
            return "two";
        }

        @Override
        public String twoUrls(URL first, URL second) {
            return "two";
        }

        @Override
        public String twoCarriers(UrlCarrier first, UrlCarrier second) {
            return "two";
        }

        @Override
        public String perMethod(URL url, Invocation first, Invocation second) {
            return "two " + first.getMethodName();
        }

        @Override
        public String notAdaptive(URL url) {
            return "two";
        }
    }
}
