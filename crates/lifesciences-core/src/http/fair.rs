//! Fair turns at a source's budget: each principal's requests wait in a queue of their
//! own, and the queues take turns by deficit round robin (each principal's share in
//! proportion to its weight), so one principal with many calls in flight cannot hold up
//! another's.
//!
//! **Invariant:** the turn is where the upstream's permits are handed out. Exactly one
//! request of a source holds the turn at a time, and only it waits for a concurrency slot
//! and a rate permit; it gives the turn back once it has both (or gives up). So no request
//! queues first-come-first-served behind another principal's after its turn: a light
//! principal's request waits at most one round of the busy principals' turns.
//!
//! Work-conserving: a principal alone gets every turn; turns are only ever shared among
//! principals that are waiting. Costs are counted in upstream requests: a cache hit or a
//! request joined in flight never takes a turn. A queue has a bound: past it a request is
//! refused at once (the caller answers `RATE_LIMITED`).

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use tokio::sync::Notify;
use tokio::time::Instant;

use crate::principal::Principal;

/// How many requests one principal may have waiting for a source's turn; past it, a
/// request is refused at once.
pub(crate) const QUEUE_LIMIT: usize = 256;

/// The turns of one source.
#[derive(Debug, Default)]
pub(crate) struct Fair {
    state: Mutex<State>,
    changed: Notify,
}

#[derive(Debug, Default)]
struct State {
    next_id: u64,
    flows: HashMap<Arc<str>, Flow>,
    /// Principals with requests waiting, in round-robin order (the front's turn).
    order: VecDeque<Arc<str>>,
    /// The request holding the turn: its principal and id.
    current: Option<(Arc<str>, u64)>,
}

#[derive(Debug)]
struct Flow {
    weight: u32,
    /// Turns left in this flow's visit (deficit round robin, one turn per request).
    deficit: u32,
    /// Whether the flow at the front has been credited its weight for this visit.
    visiting: bool,
    /// Not to be offered the turn before then: the store said its share is spent while
    /// others are owed theirs.
    deferred_until: Option<Instant>,
    waiting: VecDeque<u64>,
}

/// A request's place in its principal's queue; dropping it (a cancelled call) leaves the
/// queue, and gives the turn back if it held it.
pub(crate) struct Place<'a> {
    fair: &'a Fair,
    principal: Arc<str>,
    id: u64,
}

/// Why a request could not queue.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct QueueFull {
    /// How many of the principal's requests were waiting.
    pub(crate) waiting: usize,
}

impl Fair {
    /// Queue a request of `principal`; wait for its turn with [`Place::turn`].
    pub(crate) fn join(&self, principal: &Principal) -> Result<Place<'_>, QueueFull> {
        let mut state = self.lock();
        let id = state.next_id;
        state.next_id += 1;
        let key = Arc::clone(&principal.name);
        let is_new = !state.flows.contains_key(&key);
        let flow = state.flows.entry(Arc::clone(&key)).or_insert_with(|| Flow {
            weight: principal.weight.max(1),
            deficit: 0,
            visiting: false,
            deferred_until: None,
            waiting: VecDeque::new(),
        });
        if flow.waiting.len() >= QUEUE_LIMIT {
            return Err(QueueFull {
                waiting: flow.waiting.len(),
            });
        }
        flow.weight = principal.weight.max(1);
        let was_idle = flow.waiting.is_empty();
        flow.waiting.push_back(id);
        if is_new || was_idle {
            state.order.push_back(Arc::clone(&key));
        }
        drop(state);
        self.changed.notify_waiters();
        Ok(Place {
            fair: self,
            principal: key,
            id,
        })
    }

    /// The principals with requests waiting, and their weights (for the store's fair
    /// share across replicas).
    pub(crate) fn waiting(&self) -> Vec<(Arc<str>, u32)> {
        let state = self.lock();
        state
            .order
            .iter()
            .filter_map(|key| state.flows.get(key).map(|f| (Arc::clone(key), f.weight)))
            .collect()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl State {
    /// Who holds the turn, choosing the next by deficit round robin when no one does.
    /// A flow deferred by the store is passed over while another flow can take the turn.
    fn holder(&mut self, now: Instant) -> Option<(Arc<str>, u64)> {
        if let Some(current) = &self.current {
            return Some(current.clone());
        }
        let all_deferred = self.order.iter().all(|key| {
            self.flows
                .get(key)
                .and_then(|f| f.deferred_until)
                .is_some_and(|until| until > now)
        });
        // Each flow is visited at most twice: once to be credited, once to be served.
        for _ in 0..=2 * self.order.len() {
            let key = Arc::clone(self.order.front()?);
            let Some(flow) = self.flows.get_mut(&key) else {
                self.order.pop_front();
                continue;
            };
            if flow.waiting.is_empty() {
                flow.deficit = 0;
                flow.visiting = false;
                self.order.pop_front();
                continue;
            }
            let deferred = flow.deferred_until.is_some_and(|until| until > now);
            if deferred && !all_deferred {
                flow.visiting = false;
                self.order.rotate_left(1);
                continue;
            }
            if !flow.visiting {
                flow.deficit = flow.deficit.saturating_add(flow.weight);
                flow.visiting = true;
            }
            if flow.deficit >= 1 {
                flow.deficit -= 1;
                let id = *flow.waiting.front()?;
                self.current = Some((Arc::clone(&key), id));
                return self.current.clone();
            }
            flow.visiting = false;
            self.order.rotate_left(1);
        }
        None
    }

    /// Take request `id` of `principal` out of its queue (it went, or gave up).
    fn leave(&mut self, principal: &Arc<str>, id: u64) {
        if let Some(flow) = self.flows.get_mut(principal) {
            flow.waiting.retain(|w| *w != id);
            if flow.waiting.is_empty() {
                self.flows.remove(principal);
                self.order.retain(|k| k != principal);
            }
        }
        if self
            .current
            .as_ref()
            .is_some_and(|(p, current)| p == principal && *current == id)
        {
            self.current = None;
        }
    }
}

impl Place<'_> {
    /// Wait until this request holds the source's turn.
    pub(crate) async fn turn(&self) {
        loop {
            let changed = self.fair.changed.notified();
            tokio::pin!(changed);
            changed.as_mut().enable();
            let (holder, wake_at) = {
                let mut state = self.fair.lock();
                let now = Instant::now();
                let holder = state.holder(now);
                // A turn passed over for a deferred flow comes back when the deferral ends.
                let wake_at = state
                    .flows
                    .values()
                    .filter_map(|f| f.deferred_until)
                    .filter(|until| *until > now)
                    .min();
                (holder, wake_at)
            };
            if holder.is_some_and(|(p, id)| p == self.principal && id == self.id) {
                return;
            }
            match wake_at {
                Some(at) => {
                    tokio::select! {
                        () = &mut changed => {}
                        () = tokio::time::sleep_until(at) => {}
                    }
                }
                None => changed.await,
            }
        }
    }

    /// Give the turn to another principal for `wait`: the store says this one's share is
    /// spent while others are owed theirs. The request keeps its place at the head of its
    /// queue.
    pub(crate) fn defer(&self, wait: Duration) {
        let mut state = self.fair.lock();
        if let Some(flow) = state.flows.get_mut(&self.principal) {
            flow.deferred_until = Some(Instant::now() + wait);
            // The deferred turn is not spent.
            flow.deficit = flow.deficit.saturating_add(1);
        }
        if state
            .current
            .as_ref()
            .is_some_and(|(p, id)| *p == self.principal && *id == self.id)
        {
            state.current = None;
            if let Some(flow) = state.flows.get_mut(&self.principal) {
                flow.visiting = false;
            }
            if state.order.front() == Some(&self.principal) {
                state.order.rotate_left(1);
            }
        }
        drop(state);
        self.fair.changed.notify_waiters();
    }

    /// The store granted this principal's request: it is no longer deferred.
    pub(crate) fn granted(&self) {
        if let Some(flow) = self.fair.lock().flows.get_mut(&self.principal) {
            flow.deferred_until = None;
        }
    }
}

impl Drop for Place<'_> {
    fn drop(&mut self) {
        self.fair.lock().leave(&self.principal, self.id);
        self.fair.changed.notify_waiters();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn who(name: &str, weight: u32) -> Principal {
        Principal::named(name, weight, "")
    }

    /// Requests of `principals` (name, weight, how many) all waiting at once: the order in
    /// which they get the turn.
    async fn order_of(principals: &[(&str, u32, usize)]) -> Vec<String> {
        let fair = Arc::new(Fair::default());
        let served = Arc::new(Mutex::new(Vec::new()));
        let mut places = Vec::new();
        for (name, weight, count) in principals {
            for _ in 0..*count {
                places.push((name.to_string(), fair.join(&who(name, *weight)).unwrap()));
            }
        }
        // Each takes its turn and leaves at once, as a request granted its permit.
        let mut pending: Vec<_> = places
            .into_iter()
            .map(|(name, place)| {
                let served = Arc::clone(&served);
                async move {
                    place.turn().await;
                    served.lock().unwrap().push(name);
                    drop(place);
                }
            })
            .collect();
        futures::future::join_all(pending.drain(..)).await;
        Arc::try_unwrap(served).unwrap().into_inner().unwrap()
    }

    #[tokio::test]
    async fn busy_principals_take_turns_and_a_lone_one_takes_them_all() {
        let order = order_of(&[("heavy", 1, 6), ("light", 1, 2)]).await;
        assert_eq!(
            order,
            [
                "heavy", "light", "heavy", "light", "heavy", "heavy", "heavy", "heavy"
            ]
        );
        let alone = order_of(&[("only", 1, 3)]).await;
        assert_eq!(alone, ["only", "only", "only"]);
    }

    #[tokio::test]
    async fn a_weight_of_two_takes_two_turns_a_round() {
        let order = order_of(&[("lab", 2, 6), ("guest", 1, 3)]).await;
        assert_eq!(
            order,
            [
                "lab", "lab", "guest", "lab", "lab", "guest", "lab", "lab", "guest"
            ]
        );
    }

    #[tokio::test]
    async fn a_late_light_request_waits_one_round_not_behind_the_whole_queue() {
        let fair = Arc::new(Fair::default());
        let heavy: Vec<_> = (0..50)
            .map(|_| fair.join(&who("heavy", 1)).unwrap())
            .collect();
        // Two of heavy's requests go; then the light principal's arrives, behind 48.
        let mut heavy = heavy.into_iter();
        for _ in 0..2 {
            heavy.next().unwrap().turn().await;
        }
        let light = fair.join(&who("light", 1)).unwrap();
        let next = heavy.next().unwrap();
        let first = tokio::select! {
            () = light.turn() => "light",
            () = next.turn() => "heavy",
        };
        assert_eq!(first, "light", "the turn goes to the light request next");
    }

    #[tokio::test]
    async fn a_cancelled_request_gives_the_turn_back() {
        let fair = Fair::default();
        let first = fair.join(&who("a", 1)).unwrap();
        let second = fair.join(&who("b", 1)).unwrap();
        first.turn().await;
        drop(first);
        tokio::time::timeout(Duration::from_millis(100), second.turn())
            .await
            .expect("the turn passed on");
    }

    #[tokio::test]
    async fn a_queue_has_a_bound() {
        let fair = Fair::default();
        let places: Vec<_> = (0..QUEUE_LIMIT)
            .map(|_| fair.join(&who("flood", 1)).unwrap())
            .collect();
        assert_eq!(
            fair.join(&who("flood", 1)).err(),
            Some(QueueFull {
                waiting: QUEUE_LIMIT
            })
        );
        assert!(fair.join(&who("other", 1)).is_ok(), "others still queue");
        drop(places);
    }

    #[tokio::test(start_paused = true)]
    async fn a_deferred_principal_lets_the_others_go_first_then_comes_back() {
        let fair = Arc::new(Fair::default());
        let a = fair.join(&who("a", 1)).unwrap();
        let b = fair.join(&who("b", 1)).unwrap();
        a.turn().await;
        a.defer(Duration::from_millis(200));
        tokio::time::timeout(Duration::from_millis(10), b.turn())
            .await
            .expect("b goes while a is deferred");
        drop(b);
        let started = Instant::now();
        a.turn().await;
        assert!(Instant::now() - started <= Duration::from_millis(200));
        assert_eq!(fair.waiting(), vec![(Arc::from("a"), 1)]);
    }
}
