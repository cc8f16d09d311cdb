/**
 * Failures a capability can report, independent of any route family. Each route family renders
 * them into its own envelope in exactly one place (api/http/envelopes.ts).
 */
import { Data } from "effect"

/** A request field broke a rule; the message names the field and the rule. */
export class InvalidRequest extends Data.TaggedError("InvalidRequest")<{ readonly message: string }> {}

/** The addressed record does not exist. */
export class NotFound extends Data.TaggedError("NotFound")<{ readonly message: string }> {}

/** The application exists nowhere in the vector index (neighbourhood route). */
export class NotIndexed extends Data.TaggedError("NotIndexed")<{ readonly message: string }> {}

/** A backend this service calls (inference hub, vector index, warehouse, atlas storage) failed. */
export class UpstreamUnavailable extends Data.TaggedError("UpstreamUnavailable")<{ readonly message: string }> {}

/** The configured vector index stores no map coordinates. */
export class MapCoordinatesUnavailable extends Data.TaggedError("MapCoordinatesUnavailable")<{
  readonly message: string
}> {}

/** The artifact tables a capability reads are not configured or cannot be opened. */
export class CorpusUnavailable extends Data.TaggedError("CorpusUnavailable")<{ readonly message: string }> {}

/** The capability ran and failed (prior-art search or lookup, claim check or analysis). */
export class BackendFailed extends Data.TaggedError("BackendFailed")<{ readonly message: string }> {}

export type CapabilityError =
  | InvalidRequest
  | NotFound
  | NotIndexed
  | UpstreamUnavailable
  | MapCoordinatesUnavailable
  | CorpusUnavailable
  | BackendFailed
