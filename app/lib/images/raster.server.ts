// Pixel bounds for untrusted raster images. A file of a few hundred KB can
// describe a bitmap of gigabytes (a decompression bomb), and the decoders
// allocate for the bitmap, not the file. So the size is read from the header
// first (libvips reads no pixels for that), nothing over IMAGE_MAX_PIXELS is
// decoded, and what is decoded (to scale it down) goes through libvips one
// image or two at a time, with its own input-pixel limit as a second guard.
import type Sharp from "sharp";
import { env } from "~/env.server";

/**
 * libvips, loaded on the first image: most processes (and every test server
 * that handles no image) never pay for loading it. One libvips thread per
 * image and no operation cache: native memory stays proportional to the
 * images in work, not to what was processed before.
 */
let loaded: Promise<typeof Sharp> | undefined;
const libvips = () =>
  (loaded ??= import("sharp").then(({ default: sharp }) => {
    sharp.concurrency(1);
    sharp.cache(false);
    return sharp;
  }));

export interface RasterSize {
  width: number;
  height: number;
}

/** Width and height from the image's header (a buffer or a file), or null when no header can be read. Decodes no pixels. */
export async function rasterSize(input: Buffer | string): Promise<RasterSize | null> {
  try {
    // No limit here: the point is to learn the size of images over it.
    const sharp = await libvips();
    const meta = await sharp(input, { limitInputPixels: false }).metadata();
    return meta.width && meta.height ? { width: meta.width, height: meta.height } : null;
  } catch {
    return null;
  }
}

export const overPixelLimit = (size: RasterSize) => size.width * size.height > env.IMAGE_MAX_PIXELS;

// Decoding a large image holds tens of MB of native memory for a moment; a
// burst of them must not add up.
const DECODES_AT_ONCE = 2;
let decoding = 0;
const waiting: Array<() => void> = [];

async function oneOfFew<T>(work: () => Promise<T>): Promise<T> {
  if (decoding >= DECODES_AT_ONCE) await new Promise<void>((resolve) => waiting.push(resolve));
  else decoding++;
  try {
    return await work();
  } finally {
    // The slot passes straight to the next waiter, so nobody slips in between.
    const next = waiting.shift();
    if (next) next();
    else decoding--;
  }
}

export type RasterFormat = "jpeg" | "png" | "webp" | "gif";

export interface ShrinkOptions {
  width: number;
  height: number;
  /** inside: the whole image within the box, never enlarged; cover: the box filled, cropped around the centre. */
  fit: "inside" | "cover";
  format: RasterFormat;
}

/**
 * The image decoded (first frame of an animation, turned upright by its EXIF
 * orientation, metadata dropped), scaled to `width` × `height` and encoded as
 * `format`. Throws for images over IMAGE_MAX_PIXELS and for undecodable ones.
 */
export function shrinkRaster(input: Buffer, options: ShrinkOptions): Promise<{ body: Buffer; width: number; height: number }> {
  return oneOfFew(async () => {
    const sharp = await libvips();
    let image = sharp(input, { limitInputPixels: env.IMAGE_MAX_PIXELS, sequentialRead: true })
      .rotate()
      .resize(options.width, options.height, { fit: options.fit, withoutEnlargement: options.fit === "inside" });
    if (options.format === "jpeg") image = image.jpeg({ quality: 85 });
    else if (options.format === "png") image = image.png();
    else if (options.format === "webp") image = image.webp({ quality: 85 });
    else image = image.gif();
    const { data, info } = await image.toBuffer({ resolveWithObject: true });
    return { body: data, width: info.width, height: info.height };
  });
}
