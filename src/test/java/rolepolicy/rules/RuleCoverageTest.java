package rolepolicy.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.reflect.Method;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import rolepolicy.TestData;
import rolepolicy.engine.RuleBase;

/** Every rule of every rule file has exactly one test named after it, in that file's test class. */
class RuleCoverageTest {
  private static final Pattern RULE = Pattern.compile("^rule \"([^\"]+)\"", Pattern.MULTILINE);

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
    "policy.drl, PolicyRulesTest",
    "overrides.drl, OverrideRulesTest",
    "profiles/spec-v1/permissions.drl, PermissionRulesTest",
    "rewrites.drl, RewriteRulesTest",
    "negatives.drl, NegativeRulesTest",
    "clarify.drl, ClarifyRulesTest",
    "review.drl, ReviewRulesTest",
    "profiles/strict/permissions.drl, StrictRulesTest",
    "profiles/strict/clauses.drl, StrictRulesTest",
    "profiles/extended/count-rows.drl, ExtendedRulesTest",
    "profiles/analyst/layer.drl, TierRulesTest",
    "profiles/internal/layer.drl, TierRulesTest",
    "profiles/external/layer.drl, TierRulesTest",
    "profiles/grants/policy.drl, GrantsRulesTest",
    "profiles/grants/permissions.drl, GrantsRulesTest",
    "profiles/grants/reads.drl, GrantsRulesTest"
  })
  void everyRuleHasOneTestNamedAfterIt(String file, String testClass) throws Exception {
    List<String> rules = new ArrayList<>();
    Matcher m = RULE.matcher(Files.readString(TestData.rulesDir().resolve(file)));
    while (m.find()) {
      rules.add(m.group(1));
    }
    List<String> tests = new ArrayList<>();
    for (Method method : Class.forName("rolepolicy.rules." + testClass).getDeclaredMethods()) {
      DisplayName name = method.getAnnotation(DisplayName.class);
      if (method.isAnnotationPresent(Test.class) && name != null && rules.contains(name.value())) {
        tests.add(name.value());
      }
    }
    assertEquals(rules.stream().sorted().toList(), tests.stream().sorted().toList(),
        file + ": rules without exactly one test in " + testClass);
  }

  @Test
  @DisplayName("The rule files are the ones this suite covers")
  void ruleFilesAreKnown() throws Exception {
    try (java.util.stream.Stream<java.nio.file.Path> files = Files.walk(TestData.rulesDir())) {
      assertEquals(
          List.of("clarify.drl", "negatives.drl", "overrides.drl", "policy.drl",
              "profiles/analyst/layer.drl", "profiles/extended/count-rows.drl", "profiles/external/layer.drl",
              "profiles/grants/permissions.drl", "profiles/grants/policy.drl", "profiles/grants/reads.drl",
              "profiles/internal/layer.drl",
              "profiles/spec-v1/permissions.drl", "profiles/strict/clauses.drl", "profiles/strict/permissions.drl",
              "review.drl", "rewrites.drl"),
          files.filter(f -> f.toString().endsWith(".drl"))
              .map(f -> TestData.rulesDir().relativize(f).toString().replace('\\', '/'))
              .sorted()
              .toList());
    }
    assertEquals(
        List.of("clarify.drl", "negatives.drl", "overrides.drl", "permissions.drl", "policy.drl", "review.drl",
            "rewrites.drl"),
        RuleBase.ruleFiles(TestData.ruleSet()).stream().map(f -> f.getFileName().toString()).toList(),
        "the default profile's files");
  }
}
