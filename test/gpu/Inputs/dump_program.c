/* Prints a GPU model's tlc_gpu_program (its kernel table) and writes its code to a file: the
 * Metal test compares the table with the embedded MSL. Built with -DPROGRAM=NAME_program. */
#include <stdio.h>
#include <string.h>

#include <tlc/gpu.h>

extern const tlc_gpu_program PROGRAM;

int main(int argc, char **argv) {
  const tlc_gpu_program *p = &PROGRAM;
  printf("abi %u backend %u target \"%s\" kernels %u\n", p->abi_version, p->backend, p->target,
         p->num_kernels);
  /* Text code: NUL-terminated, code_size excluding the NUL. */
  const char *code = (const char *)p->code;
  printf("code_size %s\n", strlen(code) == p->code_size ? "matches strlen" : "WRONG");
  for (uint32_t i = 0; i < p->num_kernels; ++i) {
    const tlc_gpu_kernel *k = &p->kernels[i];
    printf("kernel %s args %u block %u %u %u\n", k->name, k->num_args, k->block[0], k->block[1],
           k->block[2]);
  }
  if (argc > 1) {
    FILE *f = fopen(argv[1], "wb");
    if (!f || fwrite(code, 1, p->code_size, f) != p->code_size || fclose(f) != 0)
      return 1;
  }
  return 0;
}
