/* gpu-noise's C API from C: renders a spec or graph file into a raw .f32 file, or feeds the API
 * bad input and checks each answer. Built and run by capi/tests/c_program.rs with `cc`.
 *   render FILE.json BACKEND OUT.f32   the whole image on GN_BACKEND_TWIN (0) or _SIMD (1)
 *   render bad                         bad JSON, fields, sizes, NULL pointers, short buffers */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_noise.h"

static char *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc((size_t)n);
    *len = fread(text, 1, (size_t)n, f);
    fclose(f);
    return text;
}

static void print_error(const char *what) {
    char message[1024];
    gn_last_error(message, sizeof message);
    fprintf(stderr, "%s: %s\n", what, message);
}

static int render_file(const char *json_path, unsigned backend, const char *out_path) {
    size_t len = 0;
    char *json = read_file(json_path, &len);
    if (!json) {
        fprintf(stderr, "cannot read %s\n", json_path);
        return 1;
    }
    GnNoise *noise = NULL;
    if (gn_noise_new(json, len, &noise) != GN_STATUS_OK) {
        print_error(json_path);
        return 1;
    }
    free(json);
    uint32_t size[3];
    gn_noise_size(noise, size);
    size_t count = (size_t)size[0] * size[1] * size[2];
    float *values = malloc(count * sizeof(float));
    const uint32_t origin[3] = {0, 0, 0};
    if (gn_render(noise, backend, origin, size, values, count) != GN_STATUS_OK) {
        print_error("gn_render");
        return 1;
    }
    FILE *out = fopen(out_path, "wb");
    fwrite(values, sizeof(float), count, out);
    fclose(out);
    free(values);
    gn_noise_free(noise);
    return 0;
}

static int failures = 0;

/* Checks a call's status and that the message names `word`. */
static void expect(const char *what, GnStatus got, GnStatus want, const char *word) {
    char message[1024];
    size_t needed = gn_last_error(message, sizeof message);
    int named = word == NULL || strstr(message, word) != NULL;
    int short_enough = needed == strlen(message) + 1 || needed > sizeof message;
    if (got != want || !named || !short_enough) {
        fprintf(stderr, "FAIL %s: status %d (want %d), message \"%s\" (want \"%s\")\n", what,
                (int)got, (int)want, message, word ? word : "");
        failures++;
    } else {
        printf("ok %s: %s\n", what, message);
    }
}

static GnStatus new_noise(const char *json, GnNoise **noise) {
    return gn_noise_new(json, strlen(json), noise);
}

static int bad_inputs(void) {
    GnNoise *noise = NULL;
    expect("bad JSON", new_noise("{\"kind\": ", &noise), GN_STATUS_INVALID_SPEC, "JSON");
    expect("octaves out of range", new_noise("{\"fractal\": \"fbm\", \"octaves\": 99}", &noise),
           GN_STATUS_INVALID_SPEC, "octaves");
    expect("unknown kind", new_noise("{\"kind\": \"plasma\"}", &noise), GN_STATUS_INVALID_SPEC,
           "plasma");
    expect("a graph's unknown node type",
           new_noise("{\"dims\": 2, \"nodes\": {\"hills\": {\"type\": \"mountains\"}}, "
                     "\"output\": \"hills\"}", &noise),
           GN_STATUS_INVALID_SPEC, "hills");
    expect("NULL json", gn_noise_new(NULL, 4, &noise), GN_STATUS_INVALID_ARGUMENT, "json");
    expect("NULL out", new_noise("{}", NULL), GN_STATUS_INVALID_ARGUMENT, "out");
    expect("not UTF-8", gn_noise_new("{\"kind\": \"\xff\"}", 12, &noise),
           GN_STATUS_INVALID_ARGUMENT, "UTF-8");

    expect("a good spec", new_noise("{\"kind\": \"simplex\", \"size\": [16, 8]}", &noise),
           GN_STATUS_OK, NULL);
    float values[128];
    const uint32_t origin[3] = {0, 0, 0};
    const uint32_t whole[3] = {16, 8, 1};
    const uint32_t empty[3] = {16, 0, 1};
    const uint32_t beyond[3] = {17, 8, 1};
    expect("a render", gn_render(noise, GN_BACKEND_TWIN, origin, whole, values, 128),
           GN_STATUS_OK, NULL);
    expect("a size of 0", gn_render(noise, GN_BACKEND_TWIN, origin, empty, values, 128),
           GN_STATUS_INVALID_ARGUMENT, "size");
    expect("a window past the image", gn_render(noise, GN_BACKEND_TWIN, origin, beyond, values, 200),
           GN_STATUS_INVALID_ARGUMENT, NULL);
    expect("a short buffer", gn_render(noise, GN_BACKEND_SIMD, origin, whole, values, 127),
           GN_STATUS_BUFFER_TOO_SMALL, "127");
    expect("NULL output", gn_render(noise, GN_BACKEND_TWIN, origin, whole, NULL, 128),
           GN_STATUS_INVALID_ARGUMENT, "out");
    expect("NULL origin", gn_render(noise, GN_BACKEND_TWIN, NULL, whole, values, 128),
           GN_STATUS_INVALID_ARGUMENT, "origin");
    expect("a backend that is none", gn_render(noise, 7, origin, whole, values, 128),
           GN_STATUS_INVALID_ARGUMENT, "backend");
    expect("NULL noise", gn_render(NULL, GN_BACKEND_TWIN, origin, whole, values, 128),
           GN_STATUS_INVALID_ARGUMENT, "noise");

    double points[8] = {1.5, 2.25, 0, 0, 3.0, 4.0, 0, 0};
    double sampled[2];
    expect("a sample", gn_sample(noise, points, 2, sampled, 2), GN_STATUS_OK, NULL);
    if (fabs(sampled[0] - values[2 * 16 + 1]) > 1.0) failures++; /* finite, in range */
    expect("a short sample buffer", gn_sample(noise, points, 2, sampled, 1),
           GN_STATUS_BUFFER_TOO_SMALL, "out_len");
    points[1] = NAN;
    expect("a point that is not finite", gn_sample(noise, points, 2, sampled, 2),
           GN_STATUS_INVALID_ARGUMENT, "finite");
    double bound = 0;
    expect("the bound", gn_noise_error_bound(noise, &bound), GN_STATUS_OK, NULL);
    if (!(bound > 0 && bound < 1e-3)) {
        fprintf(stderr, "FAIL the bound is %g\n", bound);
        failures++;
    }
    /* The GPU (lavapipe in CI) within the bound of the twin's values. */
    float gpu[128];
    expect("a GPU render", gn_render(noise, GN_BACKEND_GPU, origin, whole, gpu, 128),
           GN_STATUS_OK, NULL);
    for (int i = 0; i < 128; i++) {
        if (!(fabs((double)gpu[i] - (double)values[i]) <= bound + 1e-7)) {
            fprintf(stderr, "FAIL texel %d: GPU %g, twin %g, bound %g\n", i, gpu[i], values[i],
                    bound);
            failures++;
            break;
        }
    }
    gn_noise_free(noise);
    gn_noise_free(NULL);

    new_noise("{\"kind\": ", &noise);
    size_t needed = gn_last_error(NULL, 0);
    char tiny[8];
    size_t again = gn_last_error(tiny, sizeof tiny);
    if (needed < 10 || again != needed || strlen(tiny) != 7) {
        fprintf(stderr, "FAIL gn_last_error's sizes: %zu, %zu, \"%s\"\n", needed, again, tiny);
        failures++;
    }
    printf("%d failed\n", failures);
    return failures != 0;
}

int main(int argc, char **argv) {
    if (argc == 2 && strcmp(argv[1], "bad") == 0) return bad_inputs();
    if (argc == 4) return render_file(argv[1], (unsigned)atoi(argv[2]), argv[3]);
    fprintf(stderr, "usage: render FILE.json BACKEND OUT.f32 | render bad\n");
    return 2;
}
