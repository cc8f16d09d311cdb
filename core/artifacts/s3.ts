/**
 * The S3 client every part of the project uses: any S3-compatible endpoint (S3_ENDPOINT),
 * path-style addressing, credentials from the SDK's usual chain (AWS_* variables, profiles, roles).
 */
import { S3Client } from "@aws-sdk/client-s3"
import { Config, Option } from "effect"

export const S3Settings = Config.all({
  endpoint: Config.option(Config.string("S3_ENDPOINT")),
  region: Config.string("AWS_REGION").pipe(Config.orElse(() => Config.string("AWS_DEFAULT_REGION")), Config.withDefault("us-east-1"))
})
export type S3Settings = Config.Config.Success<typeof S3Settings>

export const makeS3Client = (settings: S3Settings) =>
  new S3Client({
    region: settings.region,
    endpoint: Option.getOrUndefined(settings.endpoint),
    forcePathStyle: true,
    // s3rver and other minimal servers store streamed uploads corrupted otherwise (DESIGN.md).
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED"
  })

export interface S3Location {
  readonly bucket: string
  /** Key prefix with a trailing slash, or "" for the bucket root. */
  readonly prefix: string
  readonly display: string
}

/** `s3://bucket/prefix` → its parts; undefined for anything else. */
export const parseS3Uri = (uri: string): S3Location | undefined => {
  const m = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/.exec(uri)
  if (!m) return undefined
  const prefix = (m[2] ?? "").replace(/^\/+|\/+$/g, "")
  return { bucket: m[1], prefix: prefix ? `${prefix}/` : "", display: uri }
}
