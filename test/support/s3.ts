/**
 * A real local S3 server (s3rver) for tests, seeded from a folder with the same keys the
 * corpus bucket uses (`<prefix>/<corpus-relative path>`).
 */
import { PutObjectCommand, S3Client } from "@aws-sdk/client-s3"
import { createReadStream } from "node:fs"
import * as fs from "node:fs/promises"
import type { AddressInfo } from "node:net"
import * as os from "node:os"
import * as path from "node:path"
// @ts-expect-error s3rver ships no type declarations
import S3rver from "s3rver"

export interface LocalS3 {
  readonly endpoint: string
  readonly client: S3Client
  readonly close: () => Promise<void>
}

export const startLocalS3 = async (bucket: string): Promise<LocalS3> => {
  const directory = await fs.mkdtemp(path.join(os.tmpdir(), "s3rver-"))
  const server = new S3rver({ port: 0, address: "127.0.0.1", silent: true, directory, configureBuckets: [{ name: bucket }] })
  const { port } = (await server.run()) as AddressInfo
  const endpoint = `http://127.0.0.1:${port}`
  // s3rver accepts these fixed credentials; the SDK's default chain reads them from the environment.
  process.env.AWS_ACCESS_KEY_ID = "S3RVER"
  process.env.AWS_SECRET_ACCESS_KEY = "S3RVER"
  process.env.AWS_REGION = "us-east-1"
  const client = new S3Client({
    region: "us-east-1",
    endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED"
  })
  return {
    endpoint,
    client,
    close: async () => {
      client.destroy()
      await server.close()
      await fs.rm(directory, { recursive: true, force: true })
    }
  }
}

const walk = async (dir: string): Promise<string[]> => {
  const out: string[] = []
  for (const e of await fs.readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, e.name)
    if (e.isDirectory()) out.push(...(await walk(full)))
    else out.push(full)
  }
  return out
}

/** Uploads every file of `folder` under `prefix/`, streaming each body. */
export const uploadFolder = async (s3: LocalS3, bucket: string, prefix: string, folder: string) => {
  for (const file of await walk(folder)) {
    const rel = path.relative(folder, file).split(path.sep).join("/")
    const { size } = await fs.stat(file)
    await s3.client.send(
      new PutObjectCommand({ Bucket: bucket, Key: `${prefix}/${rel}`, Body: createReadStream(file), ContentLength: size })
    )
  }
}
