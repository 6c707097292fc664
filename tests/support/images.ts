// Real PNG files of one colour at any size, written row by row through
// zlib so that a 12,000 × 12,000 decompression bomb (about 420 KB on disk,
// 432 MB of pixels) never exists as a bitmap here. Deterministic: the same
// arguments give the same bytes.
import { readFile, writeFile } from "node:fs/promises";
import { crc32, createDeflate } from "node:zlib";

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0);
  return Buffer.concat([length, body, crc]);
}

/** An 8-bit RGB PNG of `width` × `height` pixels, all `rgb`. */
export function flatPng(width: number, height: number, rgb: [number, number, number] = [0, 0, 0]): Promise<Buffer> {
  const row = Buffer.alloc(1 + width * 3); // filter byte 0, then the pixels
  for (let x = 0; x < width; x++) row.set(rgb, 1 + x * 3);
  return png(width, height, 8, 2, row);
}

/** A black 1-bit greyscale PNG: 12,000 × 12,000 of it is about 20 KB (and 576 MB as RGBA in whatever shows it). */
export function blackBitmapPng(width: number, height: number): Promise<Buffer> {
  return png(width, height, 1, 0, Buffer.alloc(1 + Math.ceil(width / 8)));
}

async function png(width: number, height: number, bitDepth: number, colourType: number, row: Buffer): Promise<Buffer> {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = bitDepth;
  header[9] = colourType;
  const deflate = createDeflate({ level: 9 });
  const out: Buffer[] = [];
  deflate.on("data", (d: Buffer) => out.push(d));
  const ended = new Promise((resolve, reject) => deflate.once("end", resolve).once("error", reject));
  for (let y = 0; y < height; y++) {
    if (!deflate.write(row)) await new Promise((resolve) => deflate.once("drain", resolve));
  }
  deflate.end();
  await ended;
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk("IHDR", header), chunk("IDAT", Buffer.concat(out)), chunk("IEND", Buffer.alloc(0))]);
}

/** Width and height from a PNG's IHDR. */
export function pngSize(png: Buffer): { width: number; height: number } {
  if (png.toString("latin1", 12, 16) !== "IHDR") throw new Error("not a PNG");
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/** Resident memory of a process now (VmRSS) and its peak (VmHWM), Linux, in MB. */
export async function rssMb(pid: number): Promise<{ now: number; peak: number }> {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  const mb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1]) / 1024;
  return { now: mb("VmRSS"), peak: mb("VmHWM") };
}

/** Sets a process's peak resident memory back to what it holds now, so the next peak is that of what follows. */
export async function resetPeakRss(pid: number): Promise<void> {
  await writeFile(`/proc/${pid}/clear_refs`, "5");
}
