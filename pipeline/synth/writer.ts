/**
 * Gzip-streamed output files. Producers hand over strings; they are UTF-8 encoded straight into
 * ~1 MiB buffers (one copy, no joining), compressed on libuv's thread pool so compression overlaps
 * generation, and a producer that outruns the compressor or the disk waits for 'drain'. Memory
 * stays at a few buffers per open file.
 */
import { createWriteStream } from "node:fs"
import { mkdir } from "node:fs/promises"
import path from "node:path"
import { once } from "node:events"
import { pipeline } from "node:stream/promises"
import { createGzip, type Gzip } from "node:zlib"

const CHUNK = 1 << 20

export class GzipFile {
  readonly path: string
  private readonly gzip: Gzip
  private readonly done: Promise<void>
  private buffer = Buffer.allocUnsafe(CHUNK)
  private used = 0

  private constructor(file: string, level: number) {
    this.path = file
    // Room for a few chunks, so generating the next overlaps compressing the last (zlib streams
    // take Transform options; @types/node's ZlibOptions does not list them).
    const stream = { writableHighWaterMark: 4 * CHUNK }
    this.gzip = createGzip({ level, chunkSize: 256 * 1024, ...stream })
    this.done = pipeline(this.gzip, createWriteStream(file))
  }

  static async open(file: string, level: number): Promise<GzipFile> {
    await mkdir(path.dirname(file), { recursive: true })
    return new GzipFile(file, level)
  }

  /** Appends text; resolves at once unless the compressor is backed up. */
  async write(text: string): Promise<void> {
    // A UTF-8 code unit takes at most 3 bytes.
    if (this.used + text.length * 3 > CHUNK) {
      await this.flush()
      if (text.length * 3 > CHUNK) {
        await this.push(Buffer.from(text, "utf8"))
        return
      }
    }
    this.used += this.buffer.write(text, this.used, "utf8")
  }

  private async push(chunk: Buffer): Promise<void> {
    if (!this.gzip.write(chunk)) await once(this.gzip, "drain")
  }

  private async flush(): Promise<void> {
    if (this.used === 0) return
    const chunk = this.buffer.subarray(0, this.used)
    this.buffer = Buffer.allocUnsafe(CHUNK)
    this.used = 0
    await this.push(chunk)
  }

  async close(): Promise<void> {
    await this.flush()
    this.gzip.end()
    await this.done
  }
}

/**
 * Files keyed by a name (weekly ipgYYMMDD files): writing under a new name closes the previous
 * file, so names must arrive grouped, as they do in date order.
 */
export class RotatingFiles {
  private current: GzipFile | undefined
  private currentName = ""
  /** Files still flushing: closing one must not stall writing the next. */
  private closing: Promise<void>[] = []
  readonly written: string[] = []

  constructor(
    private readonly dir: string,
    private readonly level: number
  ) {}

  async write(name: string, text: string): Promise<void> {
    if (name !== this.currentName || this.current === undefined) {
      if (this.current) this.closing.push(this.current.close())
      if (this.closing.length >= 8) await this.closing.shift()
      this.current = await GzipFile.open(path.join(this.dir, name), this.level)
      this.currentName = name
      this.written.push(name)
    }
    await this.current.write(text)
  }

  async close(): Promise<void> {
    if (this.current) this.closing.push(this.current.close())
    this.current = undefined
    await Promise.all(this.closing.splice(0))
  }
}
