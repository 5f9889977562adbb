import { isPoint, zoneBounds } from './geometry';
import type { Bounds, Point, Zone } from './types';

export interface ZoneMapOptions {
  /** Width of the drawing in CSS pixels. Default 640. */
  width?: number;
  /** Height of the drawing in CSS pixels. Default 480. */
  height?: number;
  /** Shown above the drawing and used as the document's title. */
  title?: string;
  /** Zones drawn emphasised, e.g. those containing the last sound location. */
  highlightIds?: string[];
  /** A position to mark, e.g. the last sound location, in mm. */
  point?: Point;
  /** The drawing's own words in the reader's language; English (ZONE_MAP_WORDS) where not given. */
  words?: Partial<ZoneMapWords>;
}

/** The words the drawing writes besides the device's names. */
export interface ZoneMapWords {
  east: string;
  north: string;
  noZones: string;
  origin: string;
  grid: string;
}

export const ZONE_MAP_WORDS: ZoneMapWords = {
  east: 'x east',
  north: 'y north',
  noZones: 'No zones configured',
  origin: '0,0 (device)',
  grid: 'grid',
};

const DEFAULT_WIDTH = 640;
const DEFAULT_HEIGHT = 480;
const MIN_SIZE = 160;
/** Keeps labels of zones on the room's edge, the axis names and the scale bar inside the picture. */
const MARGIN = 44;
const TITLE_SPACE = 26;
const SCALE_BAR_SPACE = 26;
/** What an empty room shows: about a small meeting room north of the device, in mm. */
const EMPTY_ROOM: Bounds = { minX: -3000, minY: -500, maxX: 3000, maxY: 5000 };
const MIN_SPAN_MM = 1000;
const FONT = 'font-family="sans-serif"';
/** Eight colours for the spec's eight zones, far apart in hue; more zones get golden-angle hues. */
const PALETTE = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2', '#17becf'];

/**
 * Makes device text safe in XML text and in quoted attributes. Characters XML 1.0 forbids (control
 * characters, lone surrogates, U+FFFE/U+FFFF) are replaced, since one of them would make the whole
 * document unreadable.
 */
export function escapeXml(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/** Far outside any picture, yet small enough that every SVG renderer reads it as a plain number. */
const DRAWN_LIMIT = 1e7;

/**
 * Fixed precision so the same input always gives the same text, and -0 never shows. Clamped, so that no
 * geometry a device sends can put Infinity, NaN or an exponent into the SVG.
 */
function num(value: number): string {
  const clamped = Number.isFinite(value) ? Math.max(-DRAWN_LIMIT, Math.min(DRAWN_LIMIT, value)) : 0;
  const rounded = Math.round(clamped * 100) / 100;
  return rounded === 0 ? '0' : String(rounded);
}

function metres(mm: number): string {
  return `${num(mm / 1000)} m`;
}

function zoneColour(index: number): string {
  return PALETTE[index] ?? `hsl(${Math.round((index * 137.508) % 360)}, 60%, 42%)`;
}

/** Smallest 1-2-5 step in mm that is at least `minimumMm`. */
function niceStep(minimumMm: number): number {
  const magnitude = 10 ** Math.floor(Math.log10(minimumMm));
  for (const factor of [1, 2, 5, 10]) {
    if (factor * magnitude >= minimumMm) return factor * magnitude;
  }
  return 10 * magnitude;
}

/** A size from the options, or the default when it is not a finite number (NaN would reach the markup). */
function pixelSize(requested: number | undefined, fallback: number): number {
  const size = typeof requested === 'number' && Number.isFinite(requested) ? requested : fallback;
  return Math.max(MIN_SIZE, Math.round(size));
}

function isFiniteBounds(bounds: Bounds): boolean {
  return [bounds.minX, bounds.minY, bounds.maxX, bounds.maxY].every(Number.isFinite);
}

function roomExtent(drawn: readonly Bounds[], point: Point | undefined): Bounds {
  if (drawn.length === 0) {
    if (point === undefined) return EMPTY_ROOM;
    drawn = [EMPTY_ROOM];
  }
  const extent = { minX: 0, minY: 0, maxX: 0, maxY: 0 };
  for (const bounds of point === undefined
    ? drawn
    : [...drawn, { minX: point.x, minY: point.y, maxX: point.x, maxY: point.y }]) {
    extent.minX = Math.min(extent.minX, bounds.minX);
    extent.minY = Math.min(extent.minY, bounds.minY);
    extent.maxX = Math.max(extent.maxX, bounds.maxX);
    extent.maxY = Math.max(extent.maxY, bounds.maxY);
  }
  for (const [min, max] of [
    ['minX', 'maxX'],
    ['minY', 'maxY'],
  ] as const) {
    const span = extent[max] - extent[min];
    const pad = Math.max((MIN_SPAN_MM - span) / 2, span * 0.05, 200);
    extent[min] -= pad;
    extent[max] += pad;
  }
  return isFiniteBounds(extent) && extent.maxX - extent.minX < Number.MAX_VALUE / 2 ? extent : EMPTY_ROOM;
}

/**
 * A standalone SVG document of the room seen from above: north up, east right, origin (0, 0) at the
 * primary audio component. It is shown inside the Node-RED editor and served over HTTP, so every text
 * from the device is escaped, and it carries no <style> (which would restyle the editor page it is
 * embedded in), no script and no element ids (two maps on one page must not clash).
 */
export function renderZoneMap(zones: readonly Zone[], options: ZoneMapOptions = {}): string {
  const width = pixelSize(options.width, DEFAULT_WIDTH);
  const height = pixelSize(options.height, DEFAULT_HEIGHT);
  const title = options.title ?? '';
  const highlighted = new Set(options.highlightIds ?? []);
  const point = isPoint(options.point) ? options.point : undefined;
  const words: ZoneMapWords = { ...ZONE_MAP_WORDS, ...options.words };

  const drawable = zones
    .map((zone, index) => ({ zone, index, bounds: zoneBounds(zone) }))
    .filter((entry) => isFiniteBounds(entry.bounds));
  const extent = roomExtent(
    drawable.map((entry) => entry.bounds),
    point,
  );

  const top = MARGIN + (title === '' ? 0 : TITLE_SPACE);
  const bottom = height - MARGIN - SCALE_BAR_SPACE;
  const areaWidth = Math.max(1, width - 2 * MARGIN);
  const areaHeight = Math.max(1, bottom - top);
  const spanX = extent.maxX - extent.minX;
  const spanY = extent.maxY - extent.minY;
  const scale = Math.min(areaWidth / spanX, areaHeight / spanY);
  const left = MARGIN + (areaWidth - spanX * scale) / 2;
  const upper = top + (areaHeight - spanY * scale) / 2;
  // SVG's y grows downwards; the room's y grows northwards, and north is drawn up.
  const sx = (x: number): number => left + (x - extent.minX) * scale;
  const sy = (y: number): number => upper + (extent.maxY - y) * scale;

  // A grid line at least every 40 px keeps the grid readable without crowding it.
  const step = niceStep(40 / scale);
  const out: string[] = [];
  const summary =
    drawable.length === 0
      ? 'No zones configured.'
      : `${drawable.length} zone${drawable.length === 1 ? '' : 's'}: ${drawable
          .map(({ zone }) => zone.label || zone.id)
          .join(', ')}.`;

  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img">`,
    `<title>${escapeXml(title === '' ? 'Room zones' : title)}</title>`,
    `<desc>${escapeXml(`${summary} Seen from above: x east (right), y north (up), in millimetres; origin at the primary audio component.`)}</desc>`,
    `<rect x="0" y="0" width="${width}" height="${height}" fill="#ffffff"/>`,
  );
  if (title !== '') {
    out.push(
      `<text x="${num(width / 2)}" y="${num(MARGIN / 2 + 12)}" ${FONT} font-size="16" font-weight="bold" text-anchor="middle" fill="#222222">${escapeXml(title)}</text>`,
    );
  }

  // Metre grid, aligned on the origin so grid lines fall on round coordinates.
  const grid: string[] = [];
  for (let x = Math.ceil(extent.minX / step) * step; x <= extent.maxX; x += step) {
    grid.push(`M${num(sx(x))} ${num(sy(extent.minY))}V${num(sy(extent.maxY))}`);
  }
  for (let y = Math.ceil(extent.minY / step) * step; y <= extent.maxY; y += step) {
    grid.push(`M${num(sx(extent.minX))} ${num(sy(y))}H${num(sx(extent.maxX))}`);
  }
  out.push(`<g class="grid"><path d="${grid.join('')}" stroke="#e4e4e4" stroke-width="1" fill="none"/></g>`);

  const xAxisEnd = sx(extent.maxX);
  const yAxisEnd = sy(extent.maxY);
  const originX = sx(0);
  const originY = sy(0);
  out.push(
    '<g class="axes" stroke="#555555" stroke-width="1.2" fill="#555555">',
    `<line x1="${num(sx(extent.minX))}" y1="${num(originY)}" x2="${num(xAxisEnd)}" y2="${num(originY)}"/>`,
    `<polygon points="${num(xAxisEnd)},${num(originY)} ${num(xAxisEnd - 9)},${num(originY - 4)} ${num(xAxisEnd - 9)},${num(originY + 4)}" stroke="none"/>`,
    `<line x1="${num(originX)}" y1="${num(sy(extent.minY))}" x2="${num(originX)}" y2="${num(yAxisEnd)}"/>`,
    `<polygon points="${num(originX)},${num(yAxisEnd)} ${num(originX - 4)},${num(yAxisEnd + 9)} ${num(originX + 4)},${num(yAxisEnd + 9)}" stroke="none"/>`,
    `<text x="${num(xAxisEnd)}" y="${num(originY + 16)}" ${FONT} font-size="12" text-anchor="end" stroke="none">${escapeXml(words.east)}</text>`,
    `<text x="${num(originX + 8)}" y="${num(yAxisEnd + 4)}" ${FONT} font-size="12" stroke="none">${escapeXml(words.north)}</text>`,
    '</g>',
  );

  out.push('<g class="zones">');
  for (const { zone, index, bounds } of drawable) {
    const colour = zoneColour(index);
    const emphasised = highlighted.has(zone.id);
    const x = sx(bounds.minX);
    const y = sy(bounds.maxY);
    const name = zone.label === '' ? zone.id || `zone ${index + 1}` : zone.label;
    const size = `${metres(bounds.maxX - bounds.minX)} × ${metres(bounds.maxY - bounds.minY)}`;
    const centreX = num((sx(bounds.minX) + sx(bounds.maxX)) / 2);
    const centreY = (sy(bounds.minY) + sy(bounds.maxY)) / 2;
    out.push(
      `<g class="zone${emphasised ? ' highlighted' : ''}" data-zone-id="${escapeXml(zone.id)}">`,
      `<title>${escapeXml(`${name} (${zone.types.join(', ') || 'no type'}), ${size}, id ${zone.id || 'none'}`)}</title>`,
      `<rect x="${num(x)}" y="${num(y)}" width="${num((bounds.maxX - bounds.minX) * scale)}" height="${num((bounds.maxY - bounds.minY) * scale)}" fill="${colour}" fill-opacity="${emphasised ? '0.55' : '0.28'}" stroke="${colour}" stroke-width="${emphasised ? 4 : 2}"/>`,
      `<text x="${centreX}" y="${num(centreY - 2)}" ${FONT} font-size="13"${emphasised ? ' font-weight="bold"' : ''} text-anchor="middle" fill="#111111">${escapeXml(name)}</text>`,
      `<text x="${centreX}" y="${num(centreY + 13)}" ${FONT} font-size="10" text-anchor="middle" fill="#444444">${escapeXml(size)}</text>`,
      '</g>',
    );
  }
  out.push('</g>');

  if (drawable.length === 0) {
    // Beside the y axis, on the side with more room (centred, it would sit across the axis), and in the
    // upper third, well clear of the x axis near the device.
    const roomRight = sx(extent.maxX) - originX;
    const roomLeft = originX - sx(extent.minX);
    const textX = roomRight >= roomLeft ? originX + 12 : originX - 12;
    out.push(
      `<text x="${num(textX)}" y="${num(upper + (spanY * scale) / 3)}" ${FONT} font-size="14" text-anchor="${roomRight >= roomLeft ? 'start' : 'end'}" fill="#777777">${escapeXml(words.noZones)}</text>`,
    );
  }

  out.push(
    '<g class="origin">',
    `<circle cx="${num(originX)}" cy="${num(originY)}" r="4" fill="#222222"/>`,
    `<text x="${num(originX + 6)}" y="${num(originY + 14)}" ${FONT} font-size="11" fill="#222222">${escapeXml(words.origin)}</text>`,
    '</g>',
  );

  if (point !== undefined) {
    const px = sx(point.x);
    const py = sy(point.y);
    out.push(
      '<g class="point">',
      `<circle cx="${num(px)}" cy="${num(py)}" r="6" fill="#ffffff" stroke="#c00000" stroke-width="2"/>`,
      `<path d="M${num(px - 10)} ${num(py)}H${num(px + 10)}M${num(px)} ${num(py - 10)}V${num(py + 10)}" stroke="#c00000" stroke-width="1.5"/>`,
      `<text x="${num(px + 9)}" y="${num(py - 9)}" ${FONT} font-size="11" fill="#c00000">${num(point.x)}, ${num(point.y)} mm</text>`,
      '</g>',
    );
  }

  const barY = height - MARGIN / 2 - 4;
  const barEnd = MARGIN + step * scale;
  out.push(
    '<g class="scale" stroke="#222222" stroke-width="1.5">',
    `<path d="M${MARGIN} ${num(barY - 5)}V${num(barY)}H${num(barEnd)}V${num(barY - 5)}" fill="none"/>`,
    `<text x="${num(barEnd + 6)}" y="${num(barY)}" ${FONT} font-size="11" stroke="none" fill="#222222">${metres(step)} (${escapeXml(words.grid)})</text>`,
    '</g>',
    '</svg>',
  );
  return `${out.join('\n')}\n`;
}
