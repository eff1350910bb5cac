// Stand-ins for rp2040js's objects, with only the members the runner's pieces use.

/** The USB controller and its USBCDC, after enumeration (OUT endpoint 2). */
export function fakeUsb() {
  const usb = {
    done: [],
    onEndpointRead: null,
    endpointReadDone(endpoint, buffer) {
      this.done.push([endpoint, Buffer.from(buffer).toString('latin1')]);
    },
  };
  const cdc = { outEndpoint: 2, onSerialData: null, onDeviceConnected: null };
  return { usb, cdc };
}

/** A GPIO pin: driven (outputEnable, outputValue) or an input with its pad's pulls. */
export class FakePin {
  constructor(index) {
    this.index = index;
    this.outputEnable = false;
    this.outputValue = false;
    this.pullupEnabled = false;
    this.pulldownEnabled = false;
    this.input = null;
    this.sets = 0;
    this.listeners = new Set();
  }

  setInputValue(value) {
    this.input = value;
    this.sets++;
  }

  addListener(f) {
    this.listeners.add(f);
    return () => this.listeners.delete(f);
  }

  drive(value) {
    this.outputEnable = value !== null;
    this.outputValue = !!value;
    for (const f of this.listeners) f();
  }
}
