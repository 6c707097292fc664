// Stand-in for Horizon's assets/component.js, which morph.js imports only to recognise its
// components (`node instanceof Component`); the fixture has no Horizon components.
export class Component extends HTMLElement {
  updatedCallback() {}
}
