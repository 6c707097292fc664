-- Seed: the occasions a list can be made for (GET /hosted/occasions), with German and English titles.
INSERT INTO "Occasion" ("slug", "titleDe", "titleEn", "position") VALUES
  ('birthday', 'Geburtstag', 'Birthday', 10),
  ('christmas', 'Weihnachten', 'Christmas', 20),
  ('wedding', 'Hochzeit', 'Wedding', 30),
  ('baby', 'Baby & Geburt', 'Baby shower', 40),
  ('anniversary', 'Jahrestag', 'Anniversary', 50),
  ('easter', 'Ostern', 'Easter', 60),
  ('valentines-day', 'Valentinstag', 'Valentine''s Day', 70),
  ('mothers-day', 'Muttertag', 'Mother''s Day', 80),
  ('fathers-day', 'Vatertag', 'Father''s Day', 90),
  ('graduation', 'Abschluss', 'Graduation', 100),
  ('school-start', 'Einschulung', 'First day of school', 110),
  ('confirmation', 'Kommunion & Konfirmation', 'Communion & confirmation', 120),
  ('housewarming', 'Einzug', 'Housewarming', 130),
  ('hanukkah', 'Chanukka', 'Hanukkah', 140),
  ('just-because', 'Einfach so', 'Just because', 900);
