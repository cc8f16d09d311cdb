/**
 * Page images of image-only filings (most provisional applications are scans). In a corpus they
 * sit at `uspto/page-images/<application number>/<page file>`; the page-images stage copies them
 * to `<version>/page-images/<application number>/`, where the API's OCR reader finds them.
 * Page order is the file names' order ("0001.png", "0002.png", …).
 */
export const PAGE_IMAGES_DIR = "page-images"
const CORPUS_PREFIX = "uspto/page-images/"

/** Formats Tesseract reads through Leptonica. */
export const PAGE_IMAGE_EXTENSIONS: ReadonlySet<string> = new Set(["png", "tif", "tiff", "jpg", "jpeg", "pbm", "pgm", "ppm", "bmp", "gif", "webp"])

/** A scanned page larger than this is not a page (and would stall OCR): skipped at build time. */
export const MAX_PAGE_IMAGE_BYTES = 40 * 1024 * 1024

export const isPageImagePath = (corpusPath: string): boolean => corpusPath.startsWith(CORPUS_PREFIX)

const APPLICATION_NUMBER = /^\d{7,8}$/
/** A folder name under page-images/ must be one (checked before any path is built from it). */
export const isApplicationNumber = (s: string): boolean => APPLICATION_NUMBER.test(s)
const PAGE_FILE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/

/** Whether a file name can be a page image: a plain name (no path parts) with an image extension. */
export const isPageFileName = (name: string): boolean => {
  if (!PAGE_FILE.test(name)) return false
  const dot = name.lastIndexOf(".")
  return dot > 0 && PAGE_IMAGE_EXTENSIONS.has(name.slice(dot + 1).toLowerCase())
}

/** The application and page file a corpus path names, or why it cannot be a page image. */
export const pageImageOf = (corpusPath: string): { readonly appNum: string; readonly file: string } | { readonly problem: string } => {
  const rest = corpusPath.slice(CORPUS_PREFIX.length).split("/")
  if (rest.length !== 2) return { problem: "a page image must sit at uspto/page-images/<application number>/<file>" }
  const [appNum, file] = rest
  if (!APPLICATION_NUMBER.test(appNum)) return { problem: `folder "${appNum.slice(0, 40)}" is not a 7-8 digit application number` }
  if (!isPageFileName(file)) return { problem: `"${file.slice(0, 60)}" is not a page image (${[...PAGE_IMAGE_EXTENSIONS].join(", ")})` }
  return { appNum, file }
}
