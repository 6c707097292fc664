// The "My lists" page's components (route: app/routes/$lang.lists.tsx).
// Everything renders on the server as plain forms and links; after
// hydration the list forms run as fetchers, the Copy and Share buttons
// appear, and focus follows what the shopper just did.
import type { Lang } from "~/i18n/lang";
import { Form, Link, useFetcher, useLocation } from "@remix-run/react";
import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from "react";
import type { MyItemView as MyItem, MyListView as MyList, MyListsView as MyListsPage } from "~/pages/my-lists.server";
import { errorText, myListsTexts, type DoneCode } from "~/i18n/my-lists";
import { ConnectedShops } from "./my-lists/connected-shops";
import { AccountSettings } from "./my-lists/account-settings";

export type ActionResult =
  | { ok: true; done: DoneCode; focus: string | null }
  | { ok: false; error: string; form: string; at: string | null; values: { email: string; name: string; description: string } };

type Texts = ReturnType<typeof myListsTexts>;

interface PageContext {
  lang: Lang;
  t: Texts;
  /** Where the page's forms post (keeps `?reveal=1`). */
  actionUrl: string;
  reveal: boolean;
  hydrated: boolean;
  /** The error of a plain (non-fetcher) post, shown in the form it came from. */
  actionData: ActionResult | null;
  /** A fetcher finished: announce it and move focus where it belongs. */
  report: (result: ActionResult & { ok: true }) => void;
  page: MyListsPage | null;
}

const Ctx = createContext<PageContext | null>(null);
const usePage = () => useContext(Ctx)!;

/**
 * A form of the page: a plain post without JavaScript, a fetcher with it.
 * `fields` are hidden inputs; `at` names the list the page returns to.
 */
function ActionForm(props: {
  intent: string;
  fields?: Record<string, string>;
  at?: number;
  className?: string;
  resetOnDone?: boolean;
  children: ReactNode;
}) {
  const ctx = usePage();
  const fetcher = useFetcher<ActionResult>();
  const handled = useRef<unknown>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const { report } = ctx;
  const { resetOnDone } = props;
  useEffect(() => {
    const data = fetcher.data;
    if (fetcher.state === "submitting" || !data || handled.current === data) return;
    handled.current = data;
    if (data.ok) {
      if (resetOnDone) formRef.current?.reset();
      report(data);
    }
  }, [fetcher.state, fetcher.data, report, resetOnDone]);
  // A plain post's error is said at the top of the reloaded page (PageAlert); a fetcher's here.
  const failed = fetcher.state === "idle" && fetcher.data && !fetcher.data.ok ? fetcher.data : null;
  return (
    <fetcher.Form method="post" action={ctx.actionUrl} ref={formRef} className={props.className} aria-busy={fetcher.state !== "idle"}>
      <input type="hidden" name="intent" value={props.intent} />
      {Object.entries(props.fields ?? {}).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {props.at ? <input type="hidden" name="at" value={String(props.at)} /> : null}
      {ctx.hydrated ? <input type="hidden" name="enhanced" value="1" /> : null}
      {props.children}
      {failed && !failed.ok ? (
        <p role="alert" className="alert ml-form-error">
          {errorText(ctx.lang, failed.error)}
        </p>
      ) : null}
    </fetcher.Form>
  );
}

// ---------------------------------------------------------------- signing in

function CredentialsForm({ intent, idPrefix }: { intent: "sign-in" | "sign-up"; idPrefix: string }) {
  const { t, lang, actionUrl, actionData } = usePage();
  const failed = actionData && !actionData.ok && actionData.form === intent ? actionData : null;
  const errorId = `${idPrefix}-error`;
  const hintId = `${idPrefix}-hint`;
  // The address stays after an error, the password never does (a reloaded page starts without it anyway).
  const password = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (failed && password.current) password.current.value = "";
  }, [failed]);
  return (
    <Form method="post" action={actionUrl} className="ml-auth-form">
      <input type="hidden" name="intent" value={intent} />
      {failed ? (
        <p role="alert" id={errorId} className="alert">
          {errorText(lang, failed.error)}
        </p>
      ) : null}
      <div className="ml-field">
        <label htmlFor={`${idPrefix}-email`}>{t.email}</label>
        <input
          id={`${idPrefix}-email`}
          type="email"
          name="email"
          autoComplete={intent === "sign-in" ? "username" : "email"}
          required
          defaultValue={failed?.values.email ?? ""}
          aria-invalid={failed ? true : undefined}
          aria-describedby={failed ? errorId : undefined}
        />
      </div>
      <div className="ml-field">
        <label htmlFor={`${idPrefix}-password`}>{t.password}</label>
        <input
          id={`${idPrefix}-password`}
          ref={password}
          type="password"
          name="password"
          autoComplete={intent === "sign-in" ? "current-password" : "new-password"}
          required
          aria-describedby={[intent === "sign-up" ? hintId : "", failed ? errorId : ""].filter(Boolean).join(" ") || undefined}
          aria-invalid={failed ? true : undefined}
        />
        {intent === "sign-up" ? (
          <p id={hintId} className="muted ml-hint">
            {t.passwordHint}
          </p>
        ) : null}
      </div>
      <button type="submit" className={intent === "sign-up" ? "btn-primary" : "btn"}>
        {intent === "sign-in" ? t.signIn : t.signUp}
      </button>
      {intent === "sign-in" ? <a className="ml-forgot" href={`/${lang}/account/forgot`}>{t.forgotPassword}</a> : null}
    </Form>
  );
}

function WayIn() {
  const { t } = usePage();
  return (
    <>
      <p className="ml-intro">{t.wayInIntro}</p>
      <div className="ml-auth">
        <section className="card ml-card" aria-labelledby="sign-in-heading">
          <h2 id="sign-in-heading">{t.signInHeading}</h2>
          <CredentialsForm intent="sign-in" idPrefix="sign-in" />
        </section>
        <section className="card ml-card" aria-labelledby="sign-up-heading">
          <h2 id="sign-up-heading">{t.signUpHeading}</h2>
          <CredentialsForm intent="sign-up" idPrefix="sign-up" />
        </section>
      </div>
    </>
  );
}

function GuestNotice() {
  const { t, actionData } = usePage();
  const signInFailed = actionData && !actionData.ok && actionData.form === "sign-in";
  return (
    <section className="notice ml-guest" aria-labelledby="guest-heading">
      <h2 id="guest-heading">{t.guestHeading}</h2>
      <p>{t.guestText}</p>
      <CredentialsForm intent="sign-up" idPrefix="guest-sign-up" />
      <details className="ml-guest-signin" open={signInFailed || undefined}>
        <summary>{t.guestHaveAccount}</summary>
        <CredentialsForm intent="sign-in" idPrefix="guest-sign-in" />
      </details>
    </section>
  );
}

function AccountBar({ page }: { page: MyListsPage }) {
  const { t, actionUrl } = usePage();
  return (
    <div className="ml-account">
      <p className="ml-who">{page.account.isAnonymous || !page.account.email ? t.signedInGuest : t.signedInAs(page.account.email)}</p>
      <Form method="post" action={actionUrl}>
        <input type="hidden" name="intent" value="sign-out" />
        <button type="submit" className="btn-link" aria-describedby={page.account.isAnonymous ? "guest-signout-warning" : undefined}>
          {t.signOut}
        </button>
      </Form>
      {page.account.isAnonymous ? (
        <p id="guest-signout-warning" className="muted ml-warning">
          {t.guestSignOutWarning}
        </p>
      ) : null}
    </div>
  );
}

// ---------------------------------------------------------------- lists

function NewList() {
  const { t, actionData } = usePage();
  const failed = actionData && !actionData.ok && actionData.form === "create-list" ? actionData : null;
  return (
    <section className="card ml-card ml-new" aria-labelledby="new-list-heading">
      <h2 id="new-list-heading">{t.newList}</h2>
      <ActionForm intent="create-list" resetOnDone className="ml-new-form">
        <div className="ml-field">
          <label htmlFor="new-list-name">{t.listName}</label>
          <input id="new-list-name" type="text" name="name" required maxLength={200} defaultValue={failed?.values.name ?? ""} />
        </div>
        <div className="ml-field">
          <label htmlFor="new-list-description">{t.listDescription}</label>
          <input id="new-list-description" type="text" name="description" maxLength={2000} defaultValue={failed?.values.description ?? ""} />
        </div>
        <button type="submit" className="btn-primary">
          {t.createList}
        </button>
      </ActionForm>
    </section>
  );
}

function ItemRow({ list, item, targets }: { list: MyList; item: MyItem; targets: MyList[] }) {
  const { t } = usePage();
  const fields = { list: list.token, item: String(item.itemId) };
  const base = `item-${item.itemId}`;
  return (
    <li className={item.purchased ? "ml-item is-purchased" : "ml-item"}>
      {item.imageUrl ? (
        <img className="thumb ml-thumb" src={item.imageUrl} alt="" width={72} height={72} loading="lazy" decoding="async" />
      ) : (
        <div className="thumb ml-thumb ml-noimage" aria-hidden="true" />
      )}
      <div className="ml-item-body">
        <h4 className="ml-item-title">
          {item.productUrl ? (
            // No Referer to shops: the page is the shopper's own business.
            <a href={item.productUrl} target="_blank" rel="noopener noreferrer">
              {item.title}
              <span className="visually-hidden"> {t.newTab}</span>
            </a>
          ) : (
            item.title
          )}
        </h4>
        <p className="ml-facts">
          {item.price ? (
            <span className="ml-price">
              <span className="visually-hidden">{t.price}: </span>
              {item.price}
            </span>
          ) : null}
          {item.shop ? (
            <span className="ml-shop">
              <span className="visually-hidden">{t.shop}: </span>
              {item.shop}
            </span>
          ) : null}
          <span className="ml-added">
            <time dateTime={item.addedAt}>{t.added(item.addedOn)}</time>
          </span>
          {item.priority ? <span className="ml-priority">{t.priorityOf(item.priority)}</span> : null}
        </p>
        {item.purchased ? <p className="ml-badge">{t.purchased}</p> : null}
      </div>
      <div className="ml-item-actions">
        <ActionForm intent="set-priority" fields={fields} at={list.dbId} className="ml-inline-form">
          <label htmlFor={`${base}-priority`}>{t.priority}</label>
          <span className="ml-control">
            <select id={`${base}-priority`} aria-label={`${t.priority}: ${item.title}`} name="priority" defaultValue={item.priority ? String(item.priority) : ""} key={item.priority ?? 0}>
              {item.priority ? null : (
                <option value="" disabled>
                  {t.priorityChoose}
                </option>
              )}
              {[1, 2, 3, 4].map((p) => (
                <option key={p} value={p}>
                  {p}
                </option>
              ))}
            </select>
            <button type="submit" className="btn" aria-label={`${t.prioritySave}: ${item.title}`}>
              {t.prioritySave}
            </button>
          </span>
        </ActionForm>
        {list.role === "owner" && targets.length > 0 ? (
          <ActionForm intent="move-item" fields={fields} at={list.dbId} className="ml-inline-form">
            <label htmlFor={`${base}-target`}>{t.moveTo}</label>
            <span className="ml-control">
              <select id={`${base}-target`} aria-label={`${t.moveTo}: ${item.title}`} name="target">
                {targets.map((target) => (
                  <option key={target.token} value={target.token}>
                    {target.name}
                  </option>
                ))}
              </select>
              <button type="submit" className="btn" aria-label={`${t.move}: ${item.title}`}>
                {t.move}
              </button>
            </span>
          </ActionForm>
        ) : null}
        <ActionForm intent="remove-item" fields={fields} at={list.dbId} className="ml-remove">
          <button type="submit" className="btn ml-danger" aria-label={`${t.remove}: ${item.title}`}>
            {t.remove}
          </button>
        </ActionForm>
      </div>
    </li>
  );
}

/**
 * Copy (navigator.clipboard) and, where the browser has it (phones), Share
 * (the Web Share API). Both need scripts: their row is in the server's HTML
 * but invisible until hydration, so nothing moves when they appear, and
 * without scripts it is not there at all (the <noscript> rule in MyListsView).
 */
function ShareButtons({ list, url }: { list: MyList; url: string }) {
  const { t, hydrated } = usePage();
  const [canShare, setCanShare] = useState(false);
  useEffect(() => setCanShare(typeof navigator.share === "function"), []);
  const [copy, setCopy] = useState<"idle" | "copied" | "failed">("idle");
  useEffect(() => setCopy("idle"), [url]);
  const copyLink = async () => {
    try {
      await navigator.clipboard.writeText(url);
      setCopy("copied");
    } catch {
      setCopy("failed");
    }
  };
  return (
    <div className="ml-row ml-js-only">
      <button type="button" className="btn" onClick={copyLink} disabled={!hydrated}>
        {t.copy}
      </button>
      {canShare ? (
        <button type="button" className="btn" onClick={() => navigator.share({ title: list.name, url }).catch(() => undefined)}>
          {t.nativeShare}
        </button>
      ) : null}
      <span role="status" aria-live="polite" className={copy === "failed" ? "ml-copy-status is-failed" : "ml-copy-status"}>
        {copy === "copied" ? t.copied : copy === "failed" ? t.copyFailed : ""}
      </span>
    </div>
  );
}

function SharePanel({ list }: { list: MyList }) {
  const { t } = usePage();
  const fields = { list: list.token };
  return (
    <section className="ml-panel" aria-labelledby={`share-${list.dbId}`}>
      <h4 id={`share-${list.dbId}`} tabIndex={-1}>
        {t.share}
      </h4>
      {list.shareUrl ? (
        <>
          <p className="muted">{t.shareExplain}</p>
          <label htmlFor={`link-${list.dbId}`}>{t.shareLink}</label>
          <input
            id={`link-${list.dbId}`}
            className="ml-link"
            type="url"
            readOnly
            value={list.shareUrl}
            onFocus={(e) => e.currentTarget.select()}
          />
          <ShareButtons list={list} url={list.shareUrl} />
          <p className="ml-row">
            <a href={list.shareUrl}>{t.openSharePage}</a>
          </p>
          <ActionForm intent="unshare" fields={fields} at={list.dbId} className="ml-row">
            <button type="submit" className="btn" aria-describedby={`unshare-${list.dbId}`}>
              {t.makePrivate}
            </button>
            <span id={`unshare-${list.dbId}`} className="muted">
              {t.makePrivateExplain}
            </span>
          </ActionForm>
        </>
      ) : (
        <ActionForm intent="share" fields={fields} at={list.dbId}>
          <p className="muted" id={`share-explain-${list.dbId}`}>
            {t.privateText} {t.shareExplain}
          </p>
          <button type="submit" className="btn-primary" aria-describedby={`share-explain-${list.dbId}`}>
            {t.makePublic}
          </button>
        </ActionForm>
      )}
    </section>
  );
}

function CollaboratorsPanel({ list }: { list: MyList }) {
  const { t, page } = usePage();
  const inviteId = `invite-${list.dbId}`;
  return (
    <section className="ml-panel" aria-labelledby={`collaborators-${list.dbId}`}>
      <h4 id={`collaborators-${list.dbId}`} tabIndex={-1}>
        {t.collaborators}
      </h4>
      {list.collaborators.length === 0 ? (
        <p className="muted">{t.noCollaborators}</p>
      ) : (
        <ul className="ml-people">
          {list.collaborators.map((person) => (
            <li key={person.userId}>
              <span className="ml-person">{person.name}</span>
              <ActionForm intent="remove-collaborator" fields={{ list: list.token, user: person.userId }} at={list.dbId}>
                <button type="submit" className="btn-link" aria-label={`${t.removeCollaborator}: ${person.name}`}>
                  {t.removeCollaborator}
                </button>
              </ActionForm>
            </li>
          ))}
        </ul>
      )}
      {list.invitable.length > 0 ? (
        <ActionForm intent="invite" fields={{ list: list.token }} at={list.dbId} className="ml-inline-form">
          <label htmlFor={inviteId}>{t.inviteLabel}</label>
          <span className="ml-control">
            <select id={inviteId} name="friend">
              {list.invitable.map((friend) => (
                <option key={friend.userId} value={friend.userId}>
                  {friend.name}
                </option>
              ))}
            </select>
            <button type="submit" className="btn">
              {t.invite}
            </button>
          </span>
        </ActionForm>
      ) : (
        <p className="muted">{page?.hasFriends ? t.allFriendsInvited : t.noFriends}</p>
      )}
    </section>
  );
}

function EditPanel({ list }: { list: MyList }) {
  const { t, page } = usePage();
  const base = `edit-${list.dbId}`;
  return (
    <details className="ml-panel ml-edit">
      <summary>{t.edit}</summary>
      <ActionForm intent="update-list" fields={{ list: list.token }} at={list.dbId} className="ml-edit-form">
        <div className="ml-field">
          <label htmlFor={`${base}-name`}>{t.listName}</label>
          <input id={`${base}-name`} type="text" name="name" required maxLength={200} defaultValue={list.name} key={list.name} />
        </div>
        <div className="ml-field">
          <label htmlFor={`${base}-description`}>{t.listDescription}</label>
          <textarea id={`${base}-description`} name="description" rows={2} maxLength={2000} defaultValue={list.description} key={list.description} />
        </div>
        <div className="ml-field">
          <label htmlFor={`${base}-occasion`}>{t.occasion}</label>
          <select id={`${base}-occasion`} name="occasion" defaultValue={list.occasionSlug} key={list.occasionSlug}>
            <option value="">{t.noOccasion}</option>
            {page?.occasions.map((o) => (
              <option key={o.slug} value={o.slug}>
                {o.title}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="btn-primary">
          {t.save}
        </button>
      </ActionForm>
    </details>
  );
}

function DeletePanel({ list, confirming }: { list: MyList; confirming: boolean }) {
  const { t, lang, actionUrl, reveal, actionData } = usePage();
  const query = reveal ? "reveal=1&" : "";
  const failed = actionData && !actionData.ok && actionData.form === `delete-list:${list.token}` ? actionData : null;
  if (!confirming) {
    return (
      <p className="ml-delete">
        <Link to={`/${lang}/lists?${query}delete=${list.dbId}#confirm-${list.dbId}`} preventScrollReset className="btn-link ml-danger-link">
          {t.deleteList}
        </Link>
      </p>
    );
  }
  return (
    <div className="ml-confirm" id={`confirm-${list.dbId}`} tabIndex={-1} role="group" aria-labelledby={`confirm-text-${list.dbId}`}>
      <p id={`confirm-text-${list.dbId}`}>{t.confirmDelete(list.name, list.itemCount)}</p>
      {failed && !failed.ok ? (
        <p role="alert" className="alert">
          {errorText(lang, failed.error)}
        </p>
      ) : null}
      <div className="ml-row">
        {/* A navigation, not a fetcher: the page leaves the list it deleted. */}
        <Form method="post" action={actionUrl}>
          <input type="hidden" name="intent" value="delete-list" />
          <input type="hidden" name="list" value={list.token} />
          <input type="hidden" name="confirm" value="yes" />
          <button type="submit" className="btn-primary ml-danger-fill">
            {t.confirmYes}
          </button>
        </Form>
        <Link to={`/${lang}/lists${reveal ? "?reveal=1" : ""}#list-${list.dbId}`} preventScrollReset className="btn">
          {t.cancel}
        </Link>
      </div>
    </div>
  );
}

function ListCard({ list, all, confirmDelete }: { list: MyList; all: MyList[]; confirmDelete: number | null }) {
  const { t } = usePage();
  const targets = all.filter((l) => l.dbId !== list.dbId);
  const isOwner = list.role === "owner";
  return (
    <article className="card ml-list" aria-labelledby={`list-${list.dbId}`}>
      <header className="ml-list-head">
        <h3 id={`list-${list.dbId}`} tabIndex={-1}>
          {list.name}
        </h3>
        <p className="ml-meta">
          <span>{t.wishes(list.itemCount)}</span>
          {list.occasionTitle ? (
            <span>
              {t.occasion}: {list.occasionTitle}
            </span>
          ) : null}
          {isOwner ? (
            <span className={list.sharePublic ? "ml-tag is-public" : "ml-tag"}>{list.sharePublic ? t.isPublic : t.isPrivate}</span>
          ) : (
            <span>{t.sharedBy(list.ownerName)}</span>
          )}
        </p>
        {list.description ? <p className="ml-description">{list.description}</p> : null}
        {isOwner ? null : <p className="muted">{t.editorNote(list.ownerName)}</p>}
      </header>
      {list.items.length === 0 ? (
        <p className="muted ml-empty">{t.emptyList}</p>
      ) : (
        <ul className="ml-items">
          {list.items.map((item) => (
            <ItemRow key={item.itemId} list={list} item={item} targets={targets} />
          ))}
        </ul>
      )}
      {isOwner ? (
        <div className="ml-tools">
          <SharePanel list={list} />
          <CollaboratorsPanel list={list} />
          <EditPanel list={list} />
          <DeletePanel list={list} confirming={confirmDelete === list.dbId} />
        </div>
      ) : null}
    </article>
  );
}

/** Price and stock alerts: an explicit opt-in with an address (confirmed by e-mail), or the way out. */
function AlertsPanel({ page }: { page: MyListsPage }) {
  const { t } = usePage();
  const a = t.alerts;
  const { status, email, reminders } = page.alerts;
  return (
    <section className="card ml-card ml-alerts" aria-labelledby="alerts">
      <h2 id="alerts" tabIndex={-1}>
        {a.heading}
      </h2>
      <p className="muted">{a.intro}</p>
      {status !== "off" && email ? <p role="note">{status === "on" ? a.on(email) : a.pending(email)}</p> : null}
      {status !== "off" && reminders ? <p role="note">{a.remindersOn}</p> : null}
      {status !== "off" ? (
        <div className="ml-alerts-actions">
          {/* Reminders: a choice apart from the alerts, on the same confirmed address. */}
          <ActionForm intent={reminders ? "reminders-off" : "reminders-on"}>
            <button type="submit" className="btn">
              {reminders ? a.remindersTurnOff : a.remindersTurnOn}
            </button>
          </ActionForm>
          {status === "on" ? (
            <ActionForm intent="alerts-off">
              <button type="submit" className="btn">
                {a.turnOff}
              </button>
            </ActionForm>
          ) : null}
        </div>
      ) : null}
      {status === "on" ? null : (
        <ActionForm intent="alerts-on" className="ml-alerts-form">
          <div className="ml-field">
            <label htmlFor="alerts-email">{a.email}</label>
            <input id="alerts-email" type="email" name="email" autoComplete="email" required maxLength={320} defaultValue={email ?? page.account.email ?? ""} />
          </div>
          <div className="ml-check">
            <input id="alerts-consent" type="checkbox" name="consent" value="yes" required />
            <label htmlFor="alerts-consent">{a.consent}</label>
          </div>
          <div className="ml-check">
            <input id="alerts-reminders" type="checkbox" name="reminders" value="yes" defaultChecked={reminders} />
            <label htmlFor="alerts-reminders">{a.reminders}</label>
          </div>
          <button type="submit" className="btn-primary">
            {a.turnOn}
          </button>
        </ActionForm>
      )}
    </section>
  );
}

function SignedIn({ page, confirmDelete }: { page: MyListsPage; confirmDelete: number | null }) {
  const { t, lang } = usePage();
  const all = [...page.owned, ...page.shared];
  const base = `/${lang}/lists`;
  return (
    <>
      {page.account.isAnonymous ? <GuestNotice /> : null}
      <NewList />
      {page.spoiler ? (
        <p className="notice ml-spoiler" role="note">
          {page.spoiler === "hidden" ? t.spoilerHidden : t.spoilerRevealed}{" "}
          <Link to={page.spoiler === "hidden" ? `${base}?reveal=1` : base} preventScrollReset>
            {page.spoiler === "hidden" ? t.spoilerShow : t.spoilerHide}
          </Link>
        </p>
      ) : null}
      <section className="ml-section" aria-labelledby="your-lists">
        <h2 id="your-lists" tabIndex={-1}>
          {t.yourLists}
        </h2>
        {page.owned.length === 0 ? <p className="muted">{t.noLists}</p> : null}
        {page.owned.map((list) => (
          <ListCard key={list.dbId} list={list} all={all} confirmDelete={confirmDelete} />
        ))}
      </section>
      {page.shared.length > 0 ? (
        <section className="ml-section" aria-labelledby="shared-lists">
          <h2 id="shared-lists">{t.sharedWithYou}</h2>
          {page.shared.map((list) => (
            <ListCard key={list.dbId} list={list} all={all} confirmDelete={null} />
          ))}
        </section>
      ) : null}
      <AlertsPanel page={page} />
      <ConnectedShops lang={lang} connections={page.connections} />
    </>
  );
}

/** A plain post's error about a list form: said at the top, where the reloaded page starts, with a way back to the list. */
function PageAlert() {
  const { t, lang, actionData, page } = usePage();
  if (!actionData || actionData.ok || ["sign-in", "sign-up"].includes(actionData.form)) return null;
  const list = [...(page?.owned ?? []), ...(page?.shared ?? [])].find((l) => String(l.dbId) === actionData.at);
  return (
    <div role="alert" className="alert ml-page-alert">
      <p>{errorText(lang, actionData.error)}</p>
      {list ? <a href={`#list-${list.dbId}`}>{t.toList(list.name)}</a> : null}
    </div>
  );
}

function Toast({ notice, onDismiss, dismissHref }: { notice: DoneCode | null; onDismiss: () => void; dismissHref: string }) {
  const { t, hydrated } = usePage();
  return (
    <div className={notice ? "ml-toast is-shown" : "ml-toast"}>
      <p role="status" aria-live="polite" className="ml-toast-text">
        {notice ? t.done[notice] : ""}
      </p>
      {notice ? (
        <a
          href={dismissHref}
          className="ml-toast-close"
          aria-label={t.dismiss}
          onClick={(e) => {
            if (!hydrated) return;
            e.preventDefault();
            onDismiss();
          }}
        >
          ×
        </a>
      ) : null}
    </div>
  );
}

export function MyListsView(props: {
  lang: Lang;
  page: MyListsPage | null;
  done: DoneCode | null;
  reveal: boolean;
  confirmDelete: number | null;
  actionData: ActionResult | null;
}) {
  const { lang, page, done, reveal, confirmDelete } = props;
  const t = myListsTexts(lang);
  const location = useLocation();
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const [notice, setNotice] = useState<DoneCode | null>(done);
  const [focusTarget, setFocusTarget] = useState<string | null>(null);
  // A navigation (plain post answered by a redirect, a link) brings its own notice and target.
  useEffect(() => {
    setNotice(done);
    if (location.hash) setFocusTarget(decodeURIComponent(location.hash.slice(1)));
  }, [done, location.key, location.hash]);
  // Focus moves once the element exists (a new list appears only after the page data is reloaded).
  useEffect(() => {
    if (!focusTarget) return;
    const element = document.getElementById(focusTarget);
    if (element) {
      element.focus();
      setFocusTarget(null);
    }
  }, [focusTarget, page]);
  const [report] = useState(() => (result: ActionResult & { ok: true }) => {
    setNotice(result.done);
    if (result.focus) setFocusTarget(result.focus);
  });
  const base = `/${lang}/lists`;
  const actionUrl = reveal ? `${base}?reveal=1` : base;
  const ctx: PageContext = { lang, t, actionUrl, reveal, hydrated, actionData: props.actionData, report, page };
  return (
    <Ctx.Provider value={ctx}>
      <div className="ml" data-hydrated={hydrated ? "" : undefined}>
        <header className="ml-header">
          <p className="ml-site">{t.siteName}</p>
          <nav aria-label={t.languages} className="ml-langs">
            <ul>
              {(["de", "en"] as const).map((l) => (
                <li key={l}>
                  <a href={`/${l}/lists`} hrefLang={l} lang={l} aria-current={l === lang ? "page" : undefined}>
                    {l === "de" ? "Deutsch" : "English"}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
          {page ? <AccountBar page={page} /> : null}
        </header>
        {/* Without scripts, what only scripts can do takes no room (see ShareButtons). */}
        <noscript>
          <style>{".ml-js-only{display:none}"}</style>
        </noscript>
        <main className="ml-main">
          <h1>{t.title}</h1>
          <PageAlert />
          {page ? <SignedIn page={page} confirmDelete={confirmDelete} /> : <WayIn />}
          <AccountSettings lang={lang} />
        </main>
        <Toast notice={notice} onDismiss={() => setNotice(null)} dismissHref={actionUrl} />
      </div>
    </Ctx.Provider>
  );
}
