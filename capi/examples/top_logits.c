/*
 * The top 3 tokens of a row of logits, through the C ABI of tinytopk.
 *
 *   cargo build --release -p tinytopk-capi
 *   cc -std=c11 -Wall -Wextra -Icapi/include capi/examples/top_logits.c \
 *      target/release/libtinytopk_capi.a -lpthread -ldl -lm -o top_logits
 *   ./top_logits
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include <tinyllm/topk.h>

int main(void) {
    /* A row of logits; -inf masks a token out, and it still counts as a value. */
    const float logits[6] = {1.0f, 3.0f, 2.0f, 3.0f, -1.0f, -INFINITY};
    int32_t ids[3];
    float values[3];

    if (tl_topk_f32(logits, 6, 3, ids, values) != TL_OK) {
        fprintf(stderr, "tl_topk_f32 rejected the row\n");
        return 1;
    }
    /* Best first; the two 3s tie and the lower index comes first. */
    for (int i = 0; i < 3; i++) {
        printf("%d. token %d (logit %g)\n", i + 1, (int)ids[i], (double)values[i]);
    }

    /* A NaN anywhere is TL_EINVAL, and ids and values are left as they were. */
    const float broken[3] = {0.5f, NAN, 2.0f};
    if (tl_topk_f32(broken, 3, 1, ids, values) != TL_EINVAL) {
        fprintf(stderr, "a NaN row was accepted\n");
        return 1;
    }
    printf("a row with a NaN: TL_EINVAL, token %d still first\n", (int)ids[0]);
    return 0;
}
