# cython: language_level=3
"""The per-thread event sink of the rules (see eventlog.pxd)."""

# The sink variable uses the initial-exec TLS model: a plain %fs-relative load instead of a
# call to __tls_get_addr (the general-dynamic model a shared object gets by default), which made
# the no-sink test of every emit cost the compiled playouts about 4% (Mount Tai, 3 players, CPU
# time). A module loaded with dlopen takes its initial-exec TLS from glibc's static TLS surplus;
# one pointer fits easily.
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
