package rolepolicy.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * A reply of 300 MB, as a misconfigured server or proxy may send: read up to {@code --llm-max-bytes}
 * and no further, a failed request that is not tried again.
 */
class HugeReplyTest {
  private static final long DECLARED = 300L << 20;

  @Test
  void aReplyLongerThanTheLimitIsAFailedRequestReadNoFurther() throws Exception {
    AtomicLong written = new AtomicLong();
    AtomicInteger requests = new AtomicInteger();
    try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      Thread serving = new Thread(() -> serve(server, written, requests));
      serving.setDaemon(true);
      serving.start();
      String url = "http://127.0.0.1:" + server.getLocalPort() + "/v1";
      ChatEndpoint endpoint = new ChatEndpoint(new ChatEndpoint.Connection(url, "m", null, 30, 2, 0.01, 1L << 20), Map.of());

      EndpointException e = assertThrows(EndpointException.class, () -> endpoint.complete("x"));

      assertTrue(e.getMessage().contains("the reply is longer than 1048576 bytes, the limit --llm-max-bytes sets"), e.getMessage());
      // a retry would be read before complete() returns: the count is final once the server is done
      server.close();
      serving.join();
      assertEquals(1, requests.get(), "not tried again");
      assertTrue(written.get() < DECLARED / 10, "the server could write only " + written.get() + " of " + DECLARED + " bytes");
    }
  }

  /** Answers each request with a JSON body of {@link #DECLARED} bytes, written until the client hangs up. */
  private static void serve(ServerSocket server, AtomicLong written, AtomicInteger requests) {
    while (!server.isClosed()) {
      answer(server, written, requests);
    }
  }

  private static void answer(ServerSocket server, AtomicLong written, AtomicInteger requests) {
    try (Socket socket = server.accept()) {
      BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
      int length = 0;
      for (String line = in.readLine(); line != null && !line.isEmpty(); line = in.readLine()) {
        if (line.toLowerCase(java.util.Locale.ROOT).startsWith("content-length:")) {
          length = Integer.parseInt(line.substring(line.indexOf(':') + 1).strip());
        }
      }
      in.skip(length);
      requests.incrementAndGet();
      OutputStream out = socket.getOutputStream();
      byte[] head = ("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + DECLARED + "\r\n\r\n"
          + "{\"choices\":[{\"message\":{\"content\":\"").getBytes(StandardCharsets.US_ASCII);
      out.write(head);
      byte[] chunk = new byte[1 << 16];
      Arrays.fill(chunk, (byte) 'x');
      for (long sent = head.length; sent < DECLARED; sent += chunk.length) {
        out.write(chunk);
        written.addAndGet(chunk.length);
      }
    } catch (IOException e) {
      // the client hung up (what the test wants), or the server was closed
    }
  }
}
