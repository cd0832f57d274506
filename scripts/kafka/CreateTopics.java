// Java fallback for `scripts/kafka-broker.sh create-topics` (used when node_modules is absent).
// Run as a single-file source program on the broker classpath, so all topics are created in
// ONE JVM:  java -cp '<libs>/*' scripts/kafka/CreateTopics.java <bootstrap> <topics-file>
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.*;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.*;
import org.apache.kafka.common.errors.TopicExistsException;

public class CreateTopics {
  public static void main(String[] args) throws Exception {
    if (args.length != 2) {
      System.err.println("usage: CreateTopics <bootstrap> <topics-file>");
      System.exit(2);
    }
    Map<String, Integer> wanted = new LinkedHashMap<>();
    int lineNo = 0;
    for (String raw : Files.readAllLines(Path.of(args[1]))) {
      lineNo++;
      String line = raw.replaceAll("#.*$", "").trim();
      if (line.isEmpty()) continue;
      String[] parts = line.split("\\s+");
      if (parts.length != 2 || !parts[1].matches("\\d+") || Integer.parseInt(parts[1]) < 1)
        throw new IllegalArgumentException(args[1] + ":" + lineNo + ": expected \"<topic> <partitions>\"");
      wanted.put(parts[0], Integer.parseInt(parts[1]));
    }
    Properties props = new Properties();
    props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, args[0]);
    props.put(AdminClientConfig.CLIENT_ID_CONFIG, "dev-stats-create-topics");
    props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "60000");
    try (Admin admin = Admin.create(props)) {
      Set<String> existing = admin.listTopics().names().get();
      List<NewTopic> missing = new ArrayList<>();
      wanted.forEach((name, n) -> { if (!existing.contains(name)) missing.add(new NewTopic(name, n, (short) 1)); });
      int created = 0;
      for (Map.Entry<String, org.apache.kafka.common.KafkaFuture<Void>> e : admin.createTopics(missing).values().entrySet()) {
        try { e.getValue().get(); created++; }
        catch (ExecutionException ex) { if (!(ex.getCause() instanceof TopicExistsException)) throw ex; }
      }
      Map<String, NewPartitions> grow = new HashMap<>();
      List<String> present = new ArrayList<>();
      for (String t : wanted.keySet()) if (existing.contains(t)) present.add(t);
      if (!present.isEmpty()) {
        for (TopicDescription d : admin.describeTopics(present).allTopicNames().get().values()) {
          int want = wanted.get(d.name());
          if (d.partitions().size() < want) grow.put(d.name(), NewPartitions.increaseTo(want));
          else if (d.partitions().size() > want)
            System.err.println("[create-topics] " + d.name() + " has " + d.partitions().size() + " partitions (> " + want + " listed); left as is");
        }
        if (!grow.isEmpty()) admin.createPartitions(grow).all().get();
      }
      // Warm-up: the first coordinator lookup makes the broker create __consumer_offsets.
      try { admin.describeConsumerGroups(List.of("dev-stats-warmup")).all().get(); } catch (ExecutionException ignored) { }
      System.out.println("[create-topics] " + wanted.size() + " topics on " + args[0] + ": " + created
          + " created, " + grow.size() + " grown, " + (wanted.size() - created - grow.size()) + " already present");
    }
  }
}
