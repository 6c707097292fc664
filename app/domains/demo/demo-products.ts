// The demo shop's products (the demo page, app/pages/demo-page.ts, and the
// admin preview's shop): two products with images from public/demo/.
export interface DemoProduct {
  slug: string;
  title: string;
  description: string;
  /** Minor units, EUR. */
  price: number;
  /** Path of its image on this service. */
  image: string;
}

export const DEMO_PRODUCTS: readonly DemoProduct[] = [
  { slug: "stoneware-mug", title: "Stoneware mug", description: "Glazed by hand, holds 350 ml.", price: 1900, image: "/demo/mug.svg" },
  { slug: "wool-scarf", title: "Wool scarf", description: "Merino, 180 cm, knitted in one piece.", price: 4990, image: "/demo/scarf.svg" },
];
