// A library with a function for every way a value crosses between Go and C,
// described by testdata/golden/opendyn-ctypes/ctypes.json.

#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <ctype.h>

// t_T returns x and writes the value after x into *next: every C type as an
// input, an output pointer and a return value.
#define T_FUNC(name, T, NEXT) \
	T t_##name(T x, T *next) { *next = NEXT; return x; }

T_FUNC(bool, bool, !x)
T_FUNC(char, char, (char)(x + 1))
T_FUNC(unsigned_char, unsigned char, (unsigned char)(x + 1))
T_FUNC(short, short, (short)(x + 1))
T_FUNC(unsigned_short, unsigned short, (unsigned short)(x + 1))
T_FUNC(int, int, x + 1)
T_FUNC(unsigned_int, unsigned int, x + 1)
T_FUNC(long, long, x + 1)
T_FUNC(unsigned_long, unsigned long, x + 1)
T_FUNC(long_long, long long, x + 1)
T_FUNC(unsigned_long_long, unsigned long long, x + 1)
T_FUNC(float, float, x + 1.5f)
T_FUNC(double, double, x + 1.5)

// half is float in, float out: a caller that promoted the argument to double
// (a call without the prototype) would get garbage.
float half(float x) { return x / 2; }

// mix takes one argument of each width in a row, which a wrong prototype
// would misplace.
double mix(char c, short s, int i, long l, long long ll, float f, double d, bool b) {
	return c + s + i + l + ll + f + d + (b ? 1 : 0);
}

// Pointers to one value: read and written (in/out), optional (NULL).
void inc(int *x) { (*x)++; }
void inc_long(long *x) { (*x)++; }
int is_null(const double *p) { return p == NULL; }

// A returned pointer to one value, and a NULL one.
static const int the_answer = 42;
const int *answer(void) { return &the_answer; }
const int *no_answer(void) { return NULL; }

// Strings both ways.
int str_len(const char *s) { return (int)strlen(s); }
int maybe_len(const char *s) { return s == NULL ? -1 : (int)strlen(s); }
const char *greeting(void) { return "héllo, wörld"; }
const char *no_string(void) { return NULL; }
// upper writes s in capitals into out, which holds 16 bytes with the NUL.
void upper(const char *s, char *out) {
	size_t i = 0;
	for (; s[i] != 0 && i < 15; i++) out[i] = (char)toupper((unsigned char)s[i]);
	out[i] = 0;
}
// ubytes_len takes a string as unsigned char*.
int ubytes_len(const unsigned char *s) { return (int)strlen((const char *)s); }

// Arrays: read, written in place, and written as an output.
double sum(const double *xs, int n) {
	double s = 0;
	for (int i = 0; i < n; i++) s += xs[i];
	return s;
}
long sum_longs(const long *xs, int n) {
	long s = 0;
	for (int i = 0; i < n; i++) s += xs[i];
	return s;
}
void scale(int *xs, int n, int k) {
	for (int i = 0; i < n; i++) xs[i] *= k;
}
void squares(short *out) {
	for (int i = 0; i < 8; i++) out[i] = (short)(i * i);
}
void flags(bool *out) {
	for (int i = 0; i < 4; i++) out[i] = i % 2 == 1;
}
unsigned int checksum(const unsigned char *data, int n) {
	unsigned int s = 0;
	for (int i = 0; i < n; i++) s = s * 31 + data[i];
	return s;
}
int count_true(const bool *xs, int n) {
	int c = 0;
	for (int i = 0; i < n; i++) c += xs[i];
	return c;
}

// An enum (a named schema) and status codes with outputs.
int mode_weight(int mode) { return mode * 10; }
int divmod(int a, int b, int *quot, int *rem) {
	if (b == 0) return 1;
	*quot = a / b;
	*rem = a % b;
	return 0;
}

// No parameters, no return.
static int ticks;
void tick(void) { __atomic_add_fetch(&ticks, 1, __ATOMIC_SEQ_CST); }
int tick_count(void) { return __atomic_load_n(&ticks, __ATOMIC_SEQ_CST); }

// adler32 is zlib's checksum, for the benchmarks.
unsigned int adler32(const unsigned char *data, int n) {
	unsigned int a = 1, b = 0;
	for (int i = 0; i < n; i++) {
		a = (a + data[i]) % 65521;
		b = (b + a) % 65521;
	}
	return (b << 16) | a;
}

// offset has an optional parameter passed by value: absent, it is 0.
int offset(int x, int delta) { return x + delta; }
