# cython: language_level=3
"""The per-thread event sink of the rules (see eventlog.pxd)."""

# The initial-exec TLS model makes reading the sink one load from the thread pointer; the
# default model of a shared object (general-dynamic) calls __tls_get_addr on every read, which
# the search paid at each of the rules' sink tests. One pointer fits the static TLS room glibc
# keeps for modules loaded with dlopen.
cdef extern from *:
    """
    static __thread void* tianti_event_sink __attribute__((tls_model("initial-exec"))) = NULL;
    """
    void* tianti_event_sink


cdef EventLog* ev_attach(EventLog* log) noexcept nogil:
    global tianti_event_sink
    cdef EventLog* previous = <EventLog*>tianti_event_sink
    tianti_event_sink = <void*>log
    return previous


cdef EventLog* ev_sink() noexcept nogil:
    return <EventLog*>tianti_event_sink


cdef void ev_emit(int kind, int seat, int cause, int a, int b, int c, int d) noexcept nogil:
    cdef EventLog* log = <EventLog*>tianti_event_sink
    cdef RawEvent* e
    if log == NULL:
        return
    if log.n >= EV_CAPACITY:
        log.dropped += 1
        return
    e = &log.ev[log.n]
    e.kind = kind
    e.seat = seat
    e.cause = cause
    e.a = a
    e.b = b
    e.c = c
    e.d = d
    log.n += 1
