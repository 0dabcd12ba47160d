// Request loggers made on first use (issue 14). Fastify gives every request a pino child bound to
// its request id; building it costs about a microsecond, and a request that logs nothing at the
// configured level (a keyed 200 at LOG_LEVEL=warn) never uses it. This child is created when a line
// is logged at an enabled level, or when anything else of the logger is asked for, and then logs
// exactly what the eager child would: the same bindings, options, redaction and serializers.
import type { FastifyBaseLogger } from 'fastify';

type Bindings = Parameters<FastifyBaseLogger['child']>[0];
type ChildLoggerOptions = NonNullable<Parameters<FastifyBaseLogger['child']>[1]>;

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
const LEVELS: Level[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'];

interface ParentLogger extends FastifyBaseLogger {
  isLevelEnabled?(level: string): boolean;
}

class LazyRequestLogger {
  #child: FastifyBaseLogger | undefined;
  constructor(
    private readonly parent: ParentLogger,
    private readonly bindings: Bindings,
    private readonly opts: ChildLoggerOptions,
  ) {}

  real(): FastifyBaseLogger {
    return (this.#child ??= this.parent.child(this.bindings, this.opts));
  }

  get level() {
    return this.real().level;
  }

  set level(v: string) {
    this.real().level = v;
  }

  silent(...args: unknown[]) {
    (this.real().silent as (...a: unknown[]) => void)(...args);
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.real().child(bindings, options);
  }
}

for (const level of LEVELS) {
  Object.defineProperty(LazyRequestLogger.prototype, level, {
    value: function (this: LazyRequestLogger, ...args: unknown[]) {
      // a level the parent leaves out is a no-op in the child too (the child inherits its level)
      const p = (this as unknown as { parent: ParentLogger }).parent;
      if (p.isLevelEnabled && !p.isLevelEnabled(level)) return;
      (this.real()[level] as (...a: unknown[]) => void)(...args);
    },
  });
}

/** Fastify's childLoggerFactory: a lazy child, or the eager one where the route sets a level or serializers. */
export function lazyChildLogger(this: unknown, logger: FastifyBaseLogger, bindings: Bindings, opts: ChildLoggerOptions): FastifyBaseLogger {
  if (opts.level || opts.serializers || typeof (logger as ParentLogger).isLevelEnabled !== 'function') return logger.child(bindings, opts);
  return new LazyRequestLogger(logger, bindings, opts) as unknown as FastifyBaseLogger;
}
