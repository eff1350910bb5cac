// What the LED strip is sent: the words DMA (or the CPU) writes into the strip's PIO state
// machine's TX FIFO, one WS2812 LED in the top 24 bits of each. The FIFO is drained as it is
// written (rp2040js runs PIO programs on timers of its own, far slower than the chip's clock
// here, and the DMA would wait on them), so a frame is whole as soon as it is written;
// frames are told apart by a pause between words longer than `gapNs`.

const KEEP_FRAMES = 32;

export class StripCapture {
  constructor(gapNs = 100_000) {
    this.gapNs = gapNs;
    this.frames = []; // the last frames: {seq, startNs, endNs, words: number[]}
    this.seq = 0;
    this.current = null;
  }

  /** One word written to the FIFO at simulated time `ns`. */
  word(value, ns) {
    if (!this.current || ns - this.current.endNs > this.gapNs) {
      this.current = { seq: ++this.seq, startNs: ns, endNs: ns, words: [] };
      this.frames.push(this.current);
      if (this.frames.length > KEEP_FRAMES) this.frames.shift();
    }
    this.current.words.push(value >>> 0);
    this.current.endNs = ns;
  }

  /** The frames numbered above `since`, each with its bytes (3 an LED, in chain order and
   * the chain's byte order) in base64. */
  since(since = 0) {
    return this.frames
      .filter((f) => f.seq > since)
      .map((f) => {
        const bytes = Buffer.alloc(3 * f.words.length);
        f.words.forEach((w, i) => {
          bytes[3 * i] = w >>> 24;
          bytes[3 * i + 1] = (w >>> 16) & 0xff;
          bytes[3 * i + 2] = (w >>> 8) & 0xff;
        });
        return {
          seq: f.seq,
          start_ns: f.startNs,
          end_ns: f.endNs,
          leds: f.words.length,
          data: bytes.toString('base64'),
        };
      });
  }
}

/** Makes state machine `machine` (rp2040js's StateMachine) hand its TX FIFO's words to
 * `capture` instead of queueing them; `now()` is the simulated time. */
export function tapStateMachine(machine, capture, now) {
  machine.writeFIFO = (value) => capture.word(value, now());
}
