// The guard that keeps calls and Close apart, without an atomic
// read-modify-write per call. Each thread has a slot (one per package: the
// thread-local otg_self points to it) that names the guard of the library it
// is calling into, 0 when none. A call marks its slot, then reads the
// library's closed flag, and calls the function only when it is not set. Close
// (runtime/dynlib) sets the flag, then issues a barrier that every running
// thread of the process passes (membarrier on Linux, FlushProcessWriteBuffers
// on Windows), so that each call either sees the flag or has its mark seen,
// waits until no slot names the library, and only then unloads it. Where no
// such barrier exists the guard's fence is set and each call fences between
// its mark and its read instead. The slots are linked into runtime/dynlib's
// list, which Close reads, and are never freed: a thread keeps its slot.
// These structures are runtime/dynlib's guard and slot types, field for field.

#include <stdint.h>
#include <stdlib.h>

typedef struct otg_slot {
	uintptr_t in;          // the guard of the library being called; 0 when none
	struct otg_slot *next; // set before the slot is linked, then not changed
} otg_slot;

typedef struct {
	uint32_t closed;  // set by Close
	uint32_t fence;   // 1: no process-wide barrier, each call fences
	otg_slot **slots; // the head of runtime/dynlib's list of slots
} otg_guard;

static _Thread_local otg_slot *otg_self;

// otg_slot_new gives the calling thread its slot, linked into g's list; NULL
// when there is no memory for it.
static otg_slot *otg_slot_new(const otg_guard *g) {
	otg_slot *s = (otg_slot *)calloc(1, sizeof *s);
	if (s == NULL) {
		return NULL;
	}
	s->next = __atomic_load_n(g->slots, __ATOMIC_ACQUIRE);
	while (!__atomic_compare_exchange_n(g->slots, &s->next, s, 1, __ATOMIC_SEQ_CST, __ATOMIC_ACQUIRE)) {
	}
	otg_self = s;
	return s;
}

// otg_enter marks the calling thread as calling into the library of the guard
// at gp and returns its slot, or NULL (and no mark) when the library is closed
// (or no slot could be had: the call is refused, as if closed).
static inline otg_slot *otg_enter(uintptr_t gp) {
	const otg_guard *g = (const otg_guard *)gp;
	otg_slot *s = otg_self;
	if (__builtin_expect(s == NULL, 0) && (s = otg_slot_new(g)) == NULL) {
		return NULL;
	}
	__atomic_store_n(&s->in, gp, __ATOMIC_RELAXED);
	if (g->fence) {
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
	} else {
		__atomic_signal_fence(__ATOMIC_SEQ_CST); // Close's barrier orders the two
	}
	if (__atomic_load_n(&g->closed, __ATOMIC_RELAXED)) {
		__atomic_store_n(&s->in, 0, __ATOMIC_RELAXED);
		return NULL;
	}
	return s;
}

// otg_leave clears the mark once the call has returned: what the call did in
// the library happens before Close sees the slot clear.
static inline void otg_leave(otg_slot *s) {
	__atomic_store_n(&s->in, 0, __ATOMIC_RELEASE);
}
