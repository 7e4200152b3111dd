package rolepolicy.run;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;

/** Prompt tokens as OpenAI's o200k_base encoding counts them: an estimate for other models. */
final class TokenCount {
  static final String ENCODING = "o200k_base";
  private final Encoding encoding = Encodings.newLazyEncodingRegistry().getEncoding(EncodingType.O200K_BASE);

  int count(String text) {
    return encoding.countTokensOrdinary(text);
  }
}
